import type { LoaderFunctionArgs } from "@remix-run/node";
import { isLocale } from "~/i18n";
import { translationScript } from "~/utils/i18n.server";

const FILE = /^([a-z]{2})(?:\.([0-9a-f]{16}))?\.js$/;

/**
 * `/i18n/{lng}.{version}.js`: a language's translations for the browser (see
 * `translationScript`). The name with the current version is cached for a year; any other
 * version, or none, gets the current text and must be checked again each time.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const match = FILE.exec(params.file ?? "");
  const lng = match?.[1];
  if (!match || !isLocale(lng)) throw new Response("Not Found", { status: 404 });
  const script = translationScript(lng);
  return new Response(script.body, {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control":
        match[2] === script.version ? "public, max-age=31536000, immutable" : "no-cache",
    },
  });
}
