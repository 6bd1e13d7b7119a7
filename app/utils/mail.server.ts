import type { EmailCodePurpose } from "@prisma/client";
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import type { Locale } from "~/i18n";
import { env } from "./env.server";
import { getFixedT } from "./i18n.server";

/**
 * Outgoing email. With SMTP_URL set, messages go out over SMTP (nodemailer; one transport made
 * on first use and reused; add `?pool=true` to the URL for pooled connections). Without it (the
 * zero-setup default; production requires SMTP_URL) each message is written as a real RFC 822
 * `.eml` file into OUTBOX_DIR and one line naming the file and the recipient is logged.
 * Every text comes from the `mail` namespace of `locales/{lng}/mail.json`.
 */

export type MailMessage = { to: string; subject: string; text: string; html?: string };

/** A single bare address: no display name, no list (a comma would add recipients). */
const SINGLE_ADDRESS = /^[^\s@,;:<>()"'[\]\\]+@[^\s@,;:<>()"'[\]\\]+$/;

let smtp: { url: string; transporter: Transporter } | undefined;
let outboxBuilder: Transporter | undefined;

function smtpTransporter(url: string): Transporter {
  if (smtp?.url !== url) {
    smtp?.transporter.close();
    smtp = { url, transporter: nodemailer.createTransport(url) };
  }
  return smtp.transporter;
}

/** Closes the SMTP transport (server shutdown, tests); the next message opens a new one. */
export function closeMailTransport(): void {
  smtp?.transporter.close();
  smtp = undefined;
}

type Delivery = { via: "smtp" } | { via: "outbox"; file: string };

async function deliver(message: MailMessage): Promise<Delivery> {
  const to = message.to.trim();
  if (!SINGLE_ADDRESS.test(to)) throw new Error("sendMail: `to` must be one email address");
  const { SMTP_URL, MAIL_FROM, OUTBOX_DIR } = env();
  const mail = {
    from: MAIL_FROM,
    to,
    subject: message.subject.replace(/\s+/g, " ").trim(),
    text: message.text,
    ...(message.html ? { html: message.html } : {}),
  };
  if (SMTP_URL) {
    await smtpTransporter(SMTP_URL).sendMail(mail);
    return { via: "smtp" };
  }
  outboxBuilder ??= nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: "windows",
  });
  const info = await outboxBuilder.sendMail(mail);
  const dir = path.resolve(OUTBOX_DIR);
  await mkdir(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const file = path.join(dir, `${stamp}-${randomBytes(4).toString("hex")}.eml`);
  await writeFile(file, info.message as Buffer, { mode: 0o600 });
  console.log(`[mail] SMTP_URL is not set: email to ${to} written to ${file}`);
  return { via: "outbox", file };
}

/** Sends one message to one address (SMTP, or the outbox file when SMTP_URL is unset). */
export async function sendMail(message: MailMessage): Promise<void> {
  await deliver(message);
}

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** Plain text to HTML: escaped, blank lines make paragraphs, http(s) addresses become links. */
export function textToHtml(text: string): string {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((paragraph) => {
      const escaped = escapeHtml(paragraph.trim()).replace(/\n/g, "<br>");
      const linked = escaped.replace(
        /https?:\/\/[^\s<]+?(?=[.,;:!?)]*(?:\s|<|$))/g,
        (url) => `<a href="${url}">${url}</a>`,
      );
      return `<p>${linked}</p>`;
    })
    .join("\n");
}

/** A small, accessible HTML document: language set, title, readable size and contrast. */
function layout(locale: Locale, subject: string, body: string): string {
  return [
    "<!doctype html>",
    `<html lang="${locale}" dir="ltr">`,
    `<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#ffffff;color:#1a1a1a;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.5">',
    '<div style="max-width:560px;margin:0 auto">',
    body,
    "</div>",
    "</body>",
    "</html>",
  ].join("\n");
}

export type CodeEmail = {
  to: string;
  locale: Locale;
  purpose: EmailCodePurpose;
  code: string;
  expiresInMinutes: number;
};

/** Subject, text and HTML of a code email (for `sendCodeEmail`; exported for previews and tests). */
export async function buildCodeEmail({
  to,
  locale,
  purpose,
  code,
  expiresInMinutes,
}: CodeEmail): Promise<MailMessage> {
  const t = await getFixedT(locale, "mail");
  const subject = t(`mail:code.${purpose}.subject`);
  const greeting = t("mail:greeting");
  const intro = t(`mail:code.${purpose}.intro`);
  const label = t("mail:code.label");
  const expires = t("mail:code.expires", { count: expiresInMinutes });
  const neverShare = t("mail:code.neverShare");
  const ignore = t("mail:code.ignore");
  const signature = t("mail:signature");
  const footer = t("mail:footer");
  const text =
    [
      greeting,
      intro,
      `${label} ${code}`,
      `${expires}\n${neverShare}`,
      ignore,
      signature,
      footer,
    ].join("\n\n") + "\n";
  const html = layout(
    locale,
    subject,
    [
      `<p>${escapeHtml(greeting)}</p>`,
      `<p>${escapeHtml(intro)}</p>`,
      `<p style="margin-bottom:4px">${escapeHtml(label)}</p>`,
      `<p style="margin-top:0;font-family:'Courier New',Courier,monospace;font-size:32px;font-weight:bold;letter-spacing:6px">${escapeHtml(code)}</p>`,
      `<p>${escapeHtml(expires)} ${escapeHtml(neverShare)}</p>`,
      `<p>${escapeHtml(ignore)}</p>`,
      `<p>${escapeHtml(signature)}</p>`,
      `<p style="color:#4a4a4a;font-size:14px">${escapeHtml(footer)}</p>`,
    ].join("\n"),
  );
  return { to, subject, text, html };
}

/**
 * Sends a verification, activation, password-reset or email-change code in the recipient's
 * language. Without SMTP_URL (development, demo) the code is also printed to the server log so
 * that a developer can sign up without a mail server; with SMTP_URL it is never logged.
 */
export async function sendCodeEmail(input: CodeEmail): Promise<void> {
  const delivery = await deliver(await buildCodeEmail(input));
  if (delivery.via === "outbox") {
    console.log(
      `[mail] ${input.purpose} code for ${input.to.trim()}: ${input.code} (logged because SMTP_URL is not set)`,
    );
  }
}

/** The values each translated email of `mail.json` (`<key>.subject`, `<key>.text`) takes. */
export type TranslatedMails = {
  auditApproved: { name: string };
  auditRefused: { name: string; reason: string };
  /** `count`: how many days the link and the invitation stay valid (the phrase's plural form follows it). */
  invitation: { doctorName: string; link: string; count: number };
  accountExists: { link: string };
};

export type TranslatedMail<K extends keyof TranslatedMails> = {
  to: string;
  locale: Locale;
  key: K;
  values: TranslatedMails[K];
};

export async function buildTranslatedMail<K extends keyof TranslatedMails>({
  to,
  locale,
  key,
  values,
}: TranslatedMail<K>): Promise<MailMessage> {
  const t = await getFixedT(locale, "mail");
  const options: Record<string, string | number> = { ...values };
  const subject = t(`mail:${key}.subject`, options);
  const text = t(`mail:${key}.text`, options);
  const footer = t("mail:footer");
  return {
    to,
    subject,
    text: `${text}\n\n${footer}\n`,
    html: layout(
      locale,
      subject,
      `${textToHtml(text)}\n<p style="color:#4a4a4a;font-size:14px">${escapeHtml(footer)}</p>`,
    ),
  };
}

/** Sends one of the simple translated emails (organisation audit results, invitations, "you already have an account"). */
export async function sendTranslatedMail<K extends keyof TranslatedMails>(
  input: TranslatedMail<K>,
): Promise<void> {
  await deliver(await buildTranslatedMail(input));
}
