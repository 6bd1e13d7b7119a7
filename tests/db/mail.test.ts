import type { ParsedMail } from "mailparser";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sendCodeEmail, sendMail, sendTranslatedMail } from "~/utils/mail.server";
import { catchMail } from "../support/catch-mail";
import { recipientsOf } from "../support/smtp-catcher";

// Real SMTP delivery: SMTP_URL points at an in-process SMTP server. env() parses process.env on
// its first call, which happens in the first test, after beforeAll has set the variables.

type Tree = { [key: string]: string | Tree };
function mailText(
  locale: string,
  key: string,
  values: Record<string, string | number> = {},
): string {
  const tree = JSON.parse(
    readFileSync(path.resolve("locales", locale, "mail.json"), "utf8"),
  ) as Tree;
  let node: string | Tree | undefined = tree;
  for (const part of key.split(".")) node = typeof node === "object" ? node[part] : undefined;
  if (typeof node !== "string") throw new Error(`mail.json (${locale}) has no ${key}`);
  return node.replace(/{{\s*(\w+)\s*}}/g, (_, name: string) => String(values[name]));
}

const smtp = catchMail({ MAIL_FROM: "DiaCare Test <mailer@diacare.test>" });
const to = (address: string) => (message: ParsedMail) => recipientsOf(message).includes(address);

afterEach(() => {
  vi.restoreAllMocks();
});

describe("sendCodeEmail over SMTP", () => {
  it("delivers the English verification code with the translated subject and text", async () => {
    await sendCodeEmail({
      to: "Ann@Example.test",
      locale: "en",
      purpose: "verify_email",
      code: "048213",
      expiresInMinutes: 15,
    });
    const mail = await smtp.catcher.waitFor(to("ann@example.test"));
    expect(mail.subject).toBe(mailText("en", "code.verify_email.subject"));
    expect(mail.subject).toBe("Your DiaCare verification code");
    expect(mail.text).toContain(mailText("en", "code.verify_email.intro"));
    expect(mail.text).toContain(`${mailText("en", "code.label")} 048213`);
    expect(mail.text).toContain(mailText("en", "code.expires_other", { count: 15 }));
    expect(mail.from?.text).toBe('"DiaCare Test" <mailer@diacare.test>');
    expect(mail.html).toContain('<html lang="en"');
    expect(mail.html).toContain("048213");
  });

  it("delivers the Polish and Russian texts, with the code, to the right people", async () => {
    await sendCodeEmail({
      to: "piotr@example.test",
      locale: "pl",
      purpose: "reset_password",
      code: "771002",
      expiresInMinutes: 15,
    });
    await sendCodeEmail({
      to: "olga@example.test",
      locale: "ru",
      purpose: "activate",
      code: "300411",
      expiresInMinutes: 15,
    });
    const pl = await smtp.catcher.waitFor(to("piotr@example.test"));
    const ru = await smtp.catcher.waitFor(to("olga@example.test"));

    expect(pl.subject).toBe(mailText("pl", "code.reset_password.subject"));
    expect(pl.subject).not.toBe(mailText("en", "code.reset_password.subject"));
    expect(pl.text).toContain(mailText("pl", "code.reset_password.intro"));
    expect(pl.text).toContain("Kod jest ważny przez 15 min");
    expect(pl.text).toContain("771002");
    expect(pl.text).not.toContain("300411");
    expect(pl.html).toContain('<html lang="pl"');

    expect(ru.subject).toBe("Активируйте учётную запись DiaCare");
    expect(ru.text).toContain(mailText("ru", "code.activate.intro"));
    expect(ru.text).toContain(`${mailText("ru", "code.label")} 300411`);
  });

  it("gives every purpose its own subject", async () => {
    const purposes = ["verify_email", "activate", "reset_password", "change_email"] as const;
    for (const purpose of purposes) {
      await sendCodeEmail({
        to: `${purpose}@example.test`,
        locale: "it",
        purpose,
        code: "123456",
        expiresInMinutes: 15,
      });
    }
    const subjects = await Promise.all(
      purposes.map(
        async (purpose) => (await smtp.catcher.waitFor(to(`${purpose}@example.test`))).subject,
      ),
    );
    expect(subjects).toEqual(purposes.map((purpose) => mailText("it", `code.${purpose}.subject`)));
    expect(new Set(subjects).size).toBe(4);
  });

  it("never writes the code to the log when SMTP is configured", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const info = vi.spyOn(console, "info").mockImplementation(() => {});
    await sendCodeEmail({
      to: "quiet@example.test",
      locale: "ro",
      purpose: "change_email",
      code: "909192",
      expiresInMinutes: 15,
    });
    const mail = await smtp.catcher.waitFor(to("quiet@example.test"));
    expect(mail.text).toContain("909192");
    const logged = [...log.mock.calls, ...info.mock.calls].flat().join("\n");
    expect(logged).not.toContain("909192");
  });
});

describe("sendTranslatedMail and sendMail over SMTP", () => {
  it("fills the invitation's values, escaping them in the HTML and linking the address", async () => {
    const link = "https://diacare.test/invite_result?doctorName=Dr%20Rossi&data=abc.def";
    await sendTranslatedMail({
      to: "patient@example.test",
      locale: "it",
      key: "invitation",
      values: { doctorName: "Dr <Rossi> & Co", link, count: 14 },
    });
    const mail = await smtp.catcher.waitFor(to("patient@example.test"));
    expect(mail.subject).toBe(
      mailText("it", "invitation.subject", { doctorName: "Dr <Rossi> & Co" }),
    );
    expect(mail.text).toContain(
      mailText("it", "invitation.text_other", { doctorName: "Dr <Rossi> & Co", link, count: 14 }),
    );
    expect(mail.text).toContain("entro 14 giorni");
    expect(mail.html).toContain("Dr &lt;Rossi&gt; &amp; Co");
    expect(mail.html).not.toContain("<Rossi>");
    expect(mail.html).toContain(`<a href="${link.replace(/&/g, "&amp;")}">`);
  });

  it("sends the organisation audit results in the recipient's language", async () => {
    await sendTranslatedMail({
      to: "clinic@example.test",
      locale: "ro",
      key: "auditRefused",
      values: { name: "Clinica Sf. Maria", reason: "Lipsește adresa" },
    });
    await sendTranslatedMail({
      to: "clinic2@example.test",
      locale: "en",
      key: "auditApproved",
      values: { name: "St Mary's" },
    });
    const refused = await smtp.catcher.waitFor(to("clinic@example.test"));
    const approved = await smtp.catcher.waitFor(to("clinic2@example.test"));
    expect(refused.subject).toBe("Nu am putut aproba organizația dumneavoastră");
    expect(refused.text).toContain("Motiv: Lipsește adresa");
    expect(refused.text).toContain("Bună ziua, Clinica Sf. Maria,");
    expect(approved.subject).toBe(mailText("en", "auditApproved.subject"));
    expect(approved.text).toContain("Hello St Mary's,");
  });

  it("sends a plain message as given, and refuses a list of recipients", async () => {
    await sendMail({
      to: "plain@example.test",
      subject: "Plain\r\nBcc: evil@example.test",
      text: "Just text.",
    });
    const mail = await smtp.catcher.waitFor(to("plain@example.test"));
    expect(mail.subject).toBe("Plain Bcc: evil@example.test");
    expect(mail.text?.trim()).toBe("Just text.");
    expect(recipientsOf(mail)).toEqual(["plain@example.test"]);
    await expect(
      sendMail({ to: "a@example.test, b@example.test", subject: "x", text: "y" }),
    ).rejects.toThrow(/one email address/);
  });
});
