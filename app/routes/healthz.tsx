/**
 * Liveness (the Docker HEALTHCHECK): the process answers HTTP. It asks nothing of the database,
 * so a database outage does not get healthy servers restarted; `/readyz` says whether to send
 * this server requests.
 */
export function loader() {
  return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
}
