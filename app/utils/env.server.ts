import { z } from "zod";

/** What a production server cannot run without (SESSION_SECRET also needs 32 characters). */
export const PRODUCTION_REQUIRED = [
  "DATABASE_URL",
  "SESSION_SECRET",
  "SMTP_URL",
  "APP_URL",
] as const;

/**
 * Every environment variable the server reads, parsed once at start-up. A missing or malformed
 * value stops the process with a message naming it (see `.env.example`).
 */
const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    /** demo: embedded database with demo data; production refuses the seed and needs real config. */
    DEPLOY_ENV: z.enum(["demo", "development", "test", "production"]).optional(),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    HOST: z.string().default("127.0.0.1"),
    /** PostgreSQL URL. Unset: the embedded PGlite database in DATA_DIR (zero-setup default). */
    DATABASE_URL: z.string().url().optional(),
    /**
     * The primary itself, when DATABASE_URL goes through a pooler in transaction mode (PgBouncer):
     * migrations and the job queue need a session of their own. Unset: DATABASE_URL.
     */
    DIRECT_DATABASE_URL: z.string().url().optional(),
    /**
     * A streaming-replication standby (or its pooler) for reads that tolerate a few seconds of
     * lag (app/utils/db.server.ts `readDb`). Unset: every read is from DATABASE_URL.
     */
    DATABASE_READ_URL: z.string().url().optional(),
    DATA_DIR: z.string().default(".data"),
    /** Signs the session cookie and email links. Required in production. */
    SESSION_SECRET: z.string().min(32).optional(),
    /** smtp://user:pass@host:port. Unset: mail is written to OUTBOX_DIR and logged. */
    SMTP_URL: z.string().url().optional(),
    MAIL_FROM: z.string().default("DiaCare <no-reply@diacare.test>"),
    OUTBOX_DIR: z.string().default(".outbox"),
    /** Public base URL used in email links. */
    APP_URL: z.string().url().optional(),
    REGIONAL_SITE_URL_PL: z.string().url().default("https://pl.diacare.example"),
    DRIVERS_DIR: z.string().default("public/drivers"),
    /** The translations, `{dir}/{lng}/{namespace}.json` (the layout tests use a pseudo-locale copy). */
    LOCALES_DIR: z.string().default("locales"),
    /** Chromium for the PDF reports (app/utils/pdf.server.ts); Debian's package by default. */
    CHROMIUM_PATH: z.string().default("/usr/bin/chromium"),
    /** PDF pages rendered at once by the one shared Chromium; further requests wait in a queue. */
    PDF_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
    /** Limit for one PDF render, and for its wait in the queue. */
    PDF_TIMEOUT_MS: z.coerce.number().int().min(1000).max(300_000).default(30_000),
    /**
     * Who renders PDFs: `inline`, this server's own Chromium; `queue`, a PDF worker process
     * (server/pdf-worker.ts) that takes render jobs from the job queue (needs PostgreSQL).
     */
    PDF_RENDERER: z.enum(["inline", "queue"]).default("inline"),
    /**
     * The PDF worker: the app origin it loads print pages from (a load balancer or one app
     * server), and the only origin it may render. Unset: APP_URL.
     */
    PDF_RENDER_URL: z.string().url().optional(),
    /** Express "trust proxy": unset = the socket address is the client; a number = trusted proxy hops. */
    TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
    /** Least severe log level written (pino): fatal, error, warn, info, debug, trace or silent. */
    LOG_LEVEL: z
      .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
      .default("info"),
    /** Failed sign-ins per client address per 15 minutes (raise it behind a shared NAT). */
    RATE_LIMIT_SIGNIN_PER_IP: z.coerce.number().int().min(1).default(30),
    /** Emailed codes per client address per hour. */
    RATE_LIMIT_CODES_PER_IP: z.coerce.number().int().min(1).default(20),
    /**
     * Months the access log is kept (docs/decisions/025-partitioned-logs.md): 72, six years, the
     * retention of the HIPAA Security Rule's records (45 CFR 164.316(b)(2)); at least 12.
     */
    ACCESS_LOG_RETENTION_MONTHS: z.coerce.number().int().min(12).max(1200).default(72),
    /** Months the upload wizard's error reports are kept (diagnostics of the browser side): 12. */
    UPLOAD_ERROR_LOG_RETENTION_MONTHS: z.coerce.number().int().min(1).max(1200).default(12),
  })
  // Production needs real settings: checked on the values given, before any default is filled in.
  .superRefine((env, ctx) => {
    // The PDF worker is another process: it shares the job queue and the outcomes through
    // PostgreSQL, which the embedded single-session database cannot offer.
    if (env.PDF_RENDERER === "queue" && !env.DATABASE_URL)
      ctx.addIssue({
        code: "custom",
        path: ["PDF_RENDERER"],
        message: "queue needs DATABASE_URL (a PostgreSQL shared with the PDF worker)",
      });
    if (env.DEPLOY_ENV !== "production") return;
    for (const key of PRODUCTION_REQUIRED) {
      if (!env[key])
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: "required when DEPLOY_ENV=production",
        });
    }
  })
  .transform((env) => ({
    ...env,
    DEPLOY_ENV: env.DEPLOY_ENV ?? (env.DATABASE_URL ? "development" : "demo"),
    APP_URL: env.APP_URL ?? `http://${env.HOST === "0.0.0.0" ? "localhost" : env.HOST}:${env.PORT}`,
  }));

export type Env = z.infer<typeof envSchema>;

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  // An empty variable (`FOO=`) means "not set".
  const given = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const parsed = envSchema.safeParse(given);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  return parsed.data;
}

let cached: Env | undefined;

/** The parsed environment (parsed on first use; the server parses it before anything else). */
export function env(): Env {
  cached ??= parseEnv();
  return cached;
}
