// `npm start`: the production server. Without DATABASE_URL it starts the embedded PostgreSQL
// (PGlite) in DATA_DIR, migrates it, and seeds the demo data on first start.
import { createRequestHandler } from "@remix-run/express";
import { broadcastDevReady, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseEnv } from "../app/utils/env.server";
import { closePdfRenderer } from "../app/utils/pdf.server";
import { startEmbeddedPostgres } from "./embedded-db";
import { migrateDeploy } from "./migrate";
import { refuseCrossSite } from "./same-origin";

const startedAt = performance.now();
const env = parseEnv();

let stopEmbedded: (() => Promise<void>) | undefined;
if (!env.DATABASE_URL) {
  const embedded = await startEmbeddedPostgres(path.resolve(env.DATA_DIR, "pglite"));
  process.env.DATABASE_URL = embedded.url;
  process.env.DATABASE_POOL_SIZE ??= "4";
  stopEmbedded = embedded.stop;
}
const databaseUrl = process.env.DATABASE_URL!;
await migrateDeploy(databaseUrl);

const { db } = await import("../app/utils/db.server");
let seeded = false;
if (env.DEPLOY_ENV === "demo" && (await db().user.count()) === 0) {
  const { seedDemo } = await import("../prisma/seed");
  await seedDemo(db());
  seeded = true;
}

const { startJobs, stopJobs } = await import("../app/jobs/index.server");
await startJobs(databaseUrl);

const build = (await import(pathToFileURL(path.resolve("build/index.js")).href)) as ServerBuild;

const app = express();
app.disable("x-powered-by");
app.use(compression());
app.use("/build", express.static("public/build", { immutable: true, maxAge: "1y" }));
app.use(express.static("public", { maxAge: "1h" }));
app.set("trust proxy", env.TRUST_PROXY);
app.use(refuseCrossSite);
// Per-IP rate limits read X-Forwarded-For: it is replaced with the address Express derives from
// the socket and the trusted proxies, so a client cannot choose its own.
app.use((req, _res, next) => {
  req.headers["x-forwarded-for"] = req.ip ?? "unknown";
  next();
});
app.all("*", createRequestHandler({ build, mode: env.NODE_ENV }));

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

async function shutdown() {
  server.close();
  await closePdfRenderer();
  await stopJobs();
  await db().$disconnect();
  await stopEmbedded?.();
  process.exit(0);
}
process.once("SIGINT", shutdown);
process.once("SIGTERM", shutdown);
