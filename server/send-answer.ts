import type { Response as ExpressResponse } from "express";
import { pipeBody } from "./pipe-body";

/** A JSON answer: made whole by its route (`Response.json`), never streamed. */
const WHOLE_ANSWER = /^application\/json\s*(;|$)/i;

/**
 * Writes a route's answer to the HTTP response: status, headers (Set-Cookie may repeat), body.
 * A JSON answer goes in one piece with its length; any other body (a page being rendered, an
 * export) is streamed as it is produced.
 */
export async function sendAnswer(res: ExpressResponse, response: Response): Promise<void> {
  res.status(response.status);
  for (const cookie of response.headers.getSetCookie()) res.append("Set-Cookie", cookie);
  for (const [name, value] of response.headers)
    if (name !== "set-cookie") res.setHeader(name, value);
  if (!response.body) {
    res.end();
    return;
  }
  if (WHOLE_ANSWER.test(response.headers.get("content-type") ?? "")) {
    // Sent in one piece with its length: the compression middleware then leaves a short answer
    // (most API answers) as it is instead of starting a gzip stream for a few hundred bytes.
    const bytes = Buffer.from(await response.arrayBuffer());
    res.setHeader("Content-Length", bytes.length);
    res.end(bytes);
    return;
  }
  await pipeBody(response.body, res);
}
