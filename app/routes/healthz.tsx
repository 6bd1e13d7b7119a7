import { db } from "~/utils/db.server";

/** Liveness and database check for load balancers and the Docker HEALTHCHECK. */
export async function loader() {
  try {
    await db().$queryRaw`SELECT 1`;
    return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
  } catch {
    return Response.json(
      { status: "database unavailable" },
      { status: 503, headers: { "Cache-Control": "no-store" } },
    );
  }
}
