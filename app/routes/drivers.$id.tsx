import type { LoaderFunctionArgs } from "@remix-run/node";
import { createReadStream, statSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { driverPath } from "~/utils/drivers.server";

/**
 * Downloads a device driver from DRIVERS_DIR; an unknown or missing driver is a 404 page. A file
 * route: it exports no component and no ErrorBoundary (either would make Remix render a page).
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const file = driverPath(params.id ?? "");
  if (!file) throw new Response("Not Found", { status: 404 });
  return new Response(Readable.toWeb(createReadStream(file)) as ReadableStream, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Length": String(statSync(file).size),
      "Content-Disposition": `attachment; filename="${path.basename(file)}"`,
    },
  });
}
