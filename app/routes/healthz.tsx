import { databaseAnswers } from "~/models/health.server";

/** Liveness and database check for load balancers and the Docker HEALTHCHECK. */
export async function loader() {
  const ok = await databaseAnswers();
  return Response.json(ok ? { status: "ok" } : { status: "database unavailable" }, {
    status: ok ? 200 : 503,
    headers: { "Cache-Control": "no-store" },
  });
}
