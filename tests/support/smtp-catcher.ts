import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { simpleParser, type AddressObject, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

/**
 * A real SMTP server for tests: it accepts every message on 127.0.0.1 (no auth, no TLS), parses
 * it with mailparser and keeps it in memory. In-process use (vitest):
 *
 *   const catcher = await startSmtpCatcher();      // SMTP_URL = catcher.url
 *   const mail = await catcher.waitFor((m) => recipientsOf(m).includes("a@b.test"));
 *
 * Standalone (Playwright, another process):
 *
 *   npx tsx tests/support/smtp-catcher.ts --port 2525 --http 2526
 *
 * serves SMTP on 127.0.0.1:2525 and JSON on http://127.0.0.1:2526:
 *   GET /messages?to=EMAIL  -> [{ to, subject, text, html, date }] for that address, newest last
 *   GET /messages           -> every message
 *   DELETE /messages        -> forgets every message (204)
 */

export type SmtpCatcher = {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  port: number;
  /** Every message received so far, oldest first. */
  messages: ParsedMail[];
  /** The first message (already received or still to come) that matches; rejects after timeoutMs. */
  waitFor(predicate: (mail: ParsedMail) => boolean, timeoutMs?: number): Promise<ParsedMail>;
  /** Forgets every message. */
  clear(): void;
  stop(): Promise<void>;
};

/** Envelope recipients (RCPT TO) of each message, which include Bcc. */
const envelopes = new WeakMap<ParsedMail, string[]>();

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  if (!field) return [];
  return (Array.isArray(field) ? field : [field])
    .flatMap((group) => group.value.map((a) => a.address ?? ""))
    .filter(Boolean);
}

/** Every recipient of a message, lower-cased: envelope, To and Cc. */
export function recipientsOf(mail: ParsedMail): string[] {
  const all = [...(envelopes.get(mail) ?? []), ...addresses(mail.to), ...addresses(mail.cc)];
  return [...new Set(all.map((a) => a.toLowerCase()))];
}

export async function startSmtpCatcher(
  options: { port?: number; host?: string } = {},
): Promise<SmtpCatcher> {
  const host = options.host ?? "127.0.0.1";
  const messages: ParsedMail[] = [];
  const waiters = new Set<(mail: ParsedMail) => void>();

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    closeTimeout: 1_000,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          envelopes.set(
            mail,
            session.envelope.rcptTo.map((r) => r.address),
          );
          messages.push(mail);
          for (const waiter of [...waiters]) waiter(mail);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  server.on("error", (error) => console.error("[smtp-catcher]", error.message));

  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.server.off("error", reject);
      resolve();
    });
  });
  const port = (server.server.address() as AddressInfo).port;

  return {
    url: `smtp://${host}:${port}`,
    port,
    messages,
    waitFor(predicate, timeoutMs = 5_000) {
      const found = messages.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise<ParsedMail>((resolve, reject) => {
        const waiter = (mail: ParsedMail) => {
          if (!predicate(mail)) return;
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(mail);
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          const seen = messages.map((m) => `${recipientsOf(m).join(",")}: ${m.subject ?? ""}`);
          reject(
            new Error(
              `no matching email within ${timeoutMs} ms; received: ${seen.length ? seen.join(" | ") : "none"}`,
            ),
          );
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    clear() {
      messages.length = 0;
    },
    stop() {
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The JSON form of a message that the HTTP endpoint serves. */
export function messageJson(mail: ParsedMail) {
  return {
    to: recipientsOf(mail).join(", "),
    subject: mail.subject ?? "",
    text: mail.text ?? "",
    html: typeof mail.html === "string" ? mail.html : "",
    date: (mail.date ?? new Date()).toISOString(),
  };
}

/** The tiny HTTP API over a catcher (see the comment at the top). */
export function startCatcherHttp(
  catcher: SmtpCatcher,
  port: number,
  host = "127.0.0.1",
): Promise<HttpServer> {
  const http = createHttpServer((req, res) => {
    const url = new URL(req.url ?? "/", `http://${host}`);
    if (url.pathname !== "/messages") {
      res
        .writeHead(404, { "content-type": "application/json" })
        .end(JSON.stringify({ error: "not found" }));
      return;
    }
    if (req.method === "GET") {
      const to = url.searchParams.get("to")?.trim().toLowerCase();
      const chosen = to
        ? catcher.messages.filter((m) => recipientsOf(m).includes(to))
        : catcher.messages;
      res.writeHead(200, {
        "content-type": "application/json; charset=utf-8",
        "cache-control": "no-store",
      });
      res.end(JSON.stringify(chosen.map(messageJson)));
      return;
    }
    if (req.method === "DELETE") {
      catcher.clear();
      res.writeHead(204).end();
      return;
    }
    res.writeHead(405, { allow: "GET, DELETE" }).end();
  });
  return new Promise((resolve, reject) => {
    http.once("error", reject);
    http.listen(port, host, () => {
      http.off("error", reject);
      resolve(http);
    });
  });
}

async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: "2525" },
      http: { type: "string", default: "2526" },
    },
  });
  const catcher = await startSmtpCatcher({ port: Number(values.port) });
  const http = await startCatcherHttp(catcher, Number(values.http));
  const httpPort = (http.address() as AddressInfo).port;
  console.log(
    `smtp-catcher: SMTP ${catcher.url}, messages at http://127.0.0.1:${httpPort}/messages`,
  );
  const stop = async () => {
    http.close();
    await catcher.stop();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

const invokedDirectly =
  process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) await main();
