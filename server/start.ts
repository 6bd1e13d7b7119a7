// `npm start`: the production server. Without DATABASE_URL it starts the embedded PostgreSQL
// (PGlite) in DATA_DIR, migrates it, and seeds the demo data on first start.
import { broadcastDevReady, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { isDraining } from "../app/utils/draining.server";
import { parseEnv, type Env } from "../app/utils/env.server";
import { logger } from "../app/utils/logger.server";
import { closePdfRenderer, sharePdfAccountLimit } from "../app/utils/pdf.server";
import { startEmbeddedPostgres } from "./embedded-db";
import { migrateDeploy } from "./migrate";
import { lastResort, remixHandler } from "./remix-handler";
import { requestLog } from "./request-log";
import { readRouting } from "./read-routing";
import { refuseCrossSite } from "./same-origin";
import { cspNonce, securityHeaders } from "./security-headers";
import { onShutdown, shutdown } from "./shutdown";

const startedAt = performance.now();
let env: Env;
try {
  env = parseEnv();
} catch (error) {
  // The message names every missing or malformed variable.
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
const log = logger();

let stopEmbedded: (() => Promise<void>) | undefined;
if (!env.DATABASE_URL) {
  const embedded = await startEmbeddedPostgres(path.resolve(env.DATA_DIR, "pglite"));
  process.env.DATABASE_URL = embedded.url;
  // PGlite is one database session behind the socket: with several app connections, queries of
  // one interleave with another's long transaction (a 30,000-record upload failed that way), so
  // the app keeps one connection and queues its queries itself.
  process.env.DATABASE_POOL_SIZE ??= "1";
  stopEmbedded = embedded.stop;
  onShutdown("embedded database", embedded.stop);
}
// Migrations (advisory locks) and the job queue hold session state, which a pooler in
// transaction mode does not keep: they go straight to the primary when DIRECT_DATABASE_URL says
// where it is.
const directUrl = env.DIRECT_DATABASE_URL ?? process.env.DATABASE_URL!;
await migrateDeploy(directUrl);

const { db, disconnectDatabases } = await import("../app/utils/db.server");
onShutdown("database", disconnectDatabases);
onShutdown("pdf renderer", closePdfRenderer);

// Each account's PDF renders are counted in PostgreSQL, so the limit holds across app servers. A
// place is held at most for a queue wait and a render (two PDF timeouts) and a margin.
const { givePlaceBack, takePlace } = await import("../app/models/rate-limit.server");
const pdfLeaseSeconds = Math.ceil((2 * env.PDF_TIMEOUT_MS) / 1000) + 5;
const pdfAccounts = {
  acquire: (account: string, perAccount: number) =>
    takePlace(`pdf:account:${account}`, perAccount, pdfLeaseSeconds),
  release: (account: string) => givePlaceBack(`pdf:account:${account}`),
};
sharePdfAccountLimit(pdfAccounts);

const { DEMO_ACCOUNTS, seedDemo } = await import("../prisma/seed");
let seeded = false;
if (env.DEPLOY_ENV === "demo" && (await db().user.count()) === 0) {
  await seedDemo();
  seeded = true;
}
if (env.DEPLOY_ENV === "production") {
  // Demo accounts have published passwords (the admin one included): never in production.
  const demo = await db().user.findMany({
    where: { email: { in: Object.values(DEMO_ACCOUNTS).map((a) => a.email) } },
    select: { email: true },
  });
  if (demo.length > 0) {
    console.error(
      `Refusing to start: DEPLOY_ENV is production and the database holds demo accounts (${demo.map((u) => u.email).join(", ")}). Delete them first.`,
    );
    await db().$disconnect();
    process.exit(1);
  }
}

const { startJobs, stopJobs } = await import("../app/jobs/index.server");
await startJobs(directUrl);
onShutdown("job queue", stopJobs);
if (env.PDF_RENDERER === "queue") {
  // PDFs are rendered by the PDF worker (server/pdf-worker.ts): this server launches no Chromium.
  const { startQueuedPdfRendering } = await import("../app/jobs/pdf-render.server");
  await startQueuedPdfRendering(pdfAccounts);
}

const build = (await import(pathToFileURL(path.resolve("build/index.js")).href)) as ServerBuild;

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", env.TRUST_PROXY);
app.use(requestLog(log));
// While stopping, answers end their keep-alive connection, so a proxy opens its next one to a
// server that is staying.
app.use((_req, res, next) => {
  if (isDraining()) res.setHeader("Connection", "close");
  next();
});
app.use(cspNonce);
app.use(securityHeaders({ https: new URL(env.APP_URL).protocol === "https:" }));
app.use(compression());
app.use("/build", express.static("public/build", { immutable: true, maxAge: "1y" }));
app.use(express.static("public", { maxAge: "1h" }));
app.use(refuseCrossSite);
// Per-IP rate limits read X-Forwarded-For: it is replaced with the address Express derives from
// the socket and the trusted proxies, so a client cannot choose its own.
app.use((req, _res, next) => {
  req.headers["x-forwarded-for"] = req.ip ?? "unknown";
  next();
});
app.use(
  readRouting({
    replica: Boolean(env.DATABASE_READ_URL),
    secure: new URL(env.APP_URL).protocol === "https:",
  }),
);
app.all("*", remixHandler(build, env.NODE_ENV));
app.use(lastResort);

const server = app.listen(env.PORT, env.HOST, () => {
  const url = `http://${env.HOST === "0.0.0.0" ? "localhost" : env.HOST}:${env.PORT}`;
  const lines = [
    `DiaCare is running at ${url} (started in ${Math.round(performance.now() - startedAt)} ms)`,
    `Database: ${stopEmbedded ? `embedded PostgreSQL (PGlite) in ${path.resolve(env.DATA_DIR, "pglite")}` : "DATABASE_URL"}${seeded ? ", demo data seeded" : ""}`,
  ];
  if (env.DEPLOY_ENV === "demo") {
    lines.push(
      "Demo sign-ins:",
      "  patient@demo.diacare.test  / demo-patient-1  (person, rich data)",
      "  patient2@demo.diacare.test / demo-patient-2  (person, sparse data)",
      "  clinic@demo.diacare.test   / demo-clinic-1   (clinic)",
      "  admin@demo.diacare.test    / demo-admin-1    (admin)",
    );
  }
  console.log(lines.join("\n"));
  if (env.NODE_ENV === "development") void broadcastDevReady(build);
});

let stopping = false;
async function stop(signal: NodeJS.Signals) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, "stopping: draining requests");
  process.exit(await shutdown(server, log));
}
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
