import { queueAnswers } from "~/jobs/queue.server";
import { secondsSinceWorkerBeat } from "~/models/pdf-job.server";
import { databaseChecks } from "~/models/readiness.server";
import { env } from "~/utils/env.server";
import { chromiumCheck, pdfWorkerCheck, processReadiness } from "~/utils/readiness.server";

/**
 * What a server needs before it takes requests: database, migrations, job queue, and PDF
 * rendering (its own Chromium, or with PDF_RENDERER=queue a PDF worker seen recently).
 */
const appChecks = () => [
  ...databaseChecks(),
  { name: "queue", run: queueAnswers },
  env().PDF_RENDERER === "queue" ? pdfWorkerCheck(secondsSinceWorkerBeat) : chromiumCheck,
];

/**
 * Readiness for the load balancer: 200 while every check passes, 503 otherwise and from the stop
 * signal on. The outcome is kept for about 1.5 s.
 */
export async function loader() {
  const { ready, checks } = await processReadiness(appChecks);
  return Response.json(
    { status: ready ? "ready" : "not ready", checks },
    { status: ready ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
