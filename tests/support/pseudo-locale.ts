/**
 * Writes a pseudo-locale copy of the translations for the layout tests: every locale as it is,
 * except English, whose every text becomes longer and accented ("Settings" becomes
 * "⟦Şéééttîîñgš⟧"): each letter takes an accented look-alike, every second vowel is doubled, and
 * the text is framed by ⟦ ⟧. Pages rendered in it show where a longer translation (German-like
 * words are about a third longer than English) would be clipped or overflow, and the frame shows
 * that the text came from the translations. {{placeholders}} and line breaks are kept.
 *
 * Usage: `npx tsx tests/support/pseudo-locale.ts OUT_DIR` (reads ./locales).
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const ACCENTED: Record<string, string> = {
  a: "á",
  e: "é",
  i: "î",
  o: "ö",
  u: "ü",
  c: "ç",
  n: "ñ",
  s: "š",
  y: "ý",
  z: "ž",
  A: "Å",
  E: "É",
  I: "Î",
  O: "Ö",
  U: "Ü",
  C: "Ç",
  N: "Ñ",
  S: "Ş",
  Y: "Ý",
  Z: "Ž",
};
const VOWELS = /[aeiouAEIOU]/;

/** The pseudo form of one text. */
export function pseudo(text: string): string {
  let vowels = 0;
  const parts = text.split(/({{[^}]*}})/);
  const body = parts
    .map((part) => {
      if (part.startsWith("{{")) return part;
      let out = "";
      for (const ch of part) {
        const accented = ACCENTED[ch] ?? ch;
        out += accented;
        if (VOWELS.test(ch) && vowels++ % 2 === 0) out += accented;
      }
      return out;
    })
    .join("");
  return `⟦${body}⟧`;
}

type Tree = { [key: string]: string | Tree };

function pseudoTree(tree: Tree): Tree {
  return Object.fromEntries(
    Object.entries(tree).map(([k, v]) => [k, typeof v === "string" ? pseudo(v) : pseudoTree(v)]),
  );
}

/** Copies ./locales to `out`, English made pseudo. */
export function main(out: string) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  cpSync("locales", out, { recursive: true });
  for (const file of readdirSync(path.join("locales", "en")).filter((f) => f.endsWith(".json"))) {
    const tree = JSON.parse(readFileSync(path.join("locales", "en", file), "utf8")) as Tree;
    writeFileSync(path.join(out, "en", file), JSON.stringify(pseudoTree(tree), null, 2));
  }
}

if (process.argv[1]?.endsWith("pseudo-locale.ts")) main(process.argv[2] ?? ".pseudo-locales");
