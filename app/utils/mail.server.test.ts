import { simpleParser } from "mailparser";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { escapeHtml, sendCodeEmail, sendMail, textToHtml } from "./mail.server";

// The zero-setup default: no SMTP_URL, so mail becomes .eml files in OUTBOX_DIR. env() parses
// process.env on first use, which is after beforeAll has set it (vitest isolates each file).

let outbox: string;
const saved = { SMTP_URL: process.env.SMTP_URL, OUTBOX_DIR: process.env.OUTBOX_DIR };

beforeAll(() => {
  outbox = mkdtempSync(path.join(tmpdir(), "diacare-outbox-"));
  delete process.env.SMTP_URL;
  process.env.OUTBOX_DIR = outbox;
});

afterAll(() => {
  rmSync(outbox, { recursive: true, force: true });
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

function emlFiles(): string[] {
  return readdirSync(outbox)
    .filter((f) => f.endsWith(".eml"))
    .sort();
}

describe("mail without SMTP_URL", () => {
  it("writes the code email as an .eml file, logs the file and recipient, and logs the code", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    await sendCodeEmail({
      to: "marta@example.test",
      locale: "it",
      purpose: "reset_password",
      code: "583920",
      expiresInMinutes: 15,
    });
    const lines = log.mock.calls.map((args) => args.join(" "));
    log.mockRestore();

    const files = emlFiles();
    expect(files).toHaveLength(1);
    const file = path.join(outbox, files[0]!);
    const raw = readFileSync(file);
    expect(raw.toString("latin1")).toContain("\r\n"); // RFC 822 line ends
    const mail = await simpleParser(raw);
    expect(mail.subject).toBe("Reimposta la password di DiaCare");
    expect(mail.text).toContain("583920");
    expect(mail.html).toContain('<html lang="it"');
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : "").toBe("marta@example.test");
    expect(mail.from?.text).toContain("no-reply@diacare.test");

    const fileLine = lines.find((line) => line.includes(file));
    expect(fileLine).toContain("marta@example.test");
    expect(fileLine).not.toContain("583920");
    expect(
      lines.some((line) => line.includes("583920") && line.includes("marta@example.test")),
    ).toBe(true);
  });

  it("writes a plain message too, without logging anything but the file line", async () => {
    const before = new Set(emlFiles());
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    await sendMail({
      to: "plain@example.test",
      subject: "Hello",
      text: "Body 1234",
      html: "<p>Body 1234</p>",
    });
    const lines = log.mock.calls.map((args) => args.join(" "));
    log.mockRestore();
    const added = emlFiles().filter((f) => !before.has(f));
    expect(added).toHaveLength(1);
    const mail = await simpleParser(readFileSync(path.join(outbox, added[0]!)));
    expect(mail.subject).toBe("Hello");
    expect(mail.html).toBe("<p>Body 1234</p>");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("plain@example.test");
    expect(lines[0]).toContain(path.join(outbox, added[0]!));
  });
});

describe("HTML helpers", () => {
  it("escape markup", () => {
    expect(escapeHtml(`<a href="x">Tom & 'Jerry'</a>`)).toBe(
      "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;",
    );
  });

  it("turn text into paragraphs with line breaks and links, leaving trailing punctuation out of links", () => {
    const html = textToHtml(
      "Hello <b>you</b>,\nsecond line\n\nOpen https://x.test/a?b=1&c=2. Thanks",
    );
    expect(html).toBe(
      '<p>Hello &lt;b&gt;you&lt;/b&gt;,<br>second line</p>\n<p>Open <a href="https://x.test/a?b=1&amp;c=2">https://x.test/a?b=1&amp;c=2</a>. Thanks</p>',
    );
  });
});
