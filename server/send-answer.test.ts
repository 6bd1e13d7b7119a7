import compression from "compression";
import express from "express";
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendAnswer } from "./send-answer";

const LONG = { rows: Array.from({ length: 200 }, (_, i) => ({ row: i, text: "a value" })) };

/** A body made piece by piece: the second piece is produced only after the first was sent. */
function twoPieces(): Response {
  const encoder = new TextEncoder();
  let piece = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      piece += 1;
      if (piece <= 2) controller.enqueue(encoder.encode(`piece ${piece}\n`));
      else controller.close();
    },
  });
  return new Response(body, { headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

const ANSWERS: Record<string, () => Response> = {
  "/short": () => Response.json({ code: 200, msg: "ok", data: 1 }),
  "/long": () => Response.json(LONG, { headers: { "Set-Cookie": "a=1" } }),
  "/stream": twoPieces,
  "/empty": () => new Response(null, { status: 204 }),
};

type Got = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** A request as a browser makes it (gzip accepted); the body as received, decompressed. */
function get(port: number, path: string, method = "GET"): Promise<Got> {
  return new Promise((resolve, reject) => {
    http
      .request({ port, path, method, headers: { "Accept-Encoding": "gzip" } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const raw = Buffer.concat(chunks);
          const body = res.headers["content-encoding"] === "gzip" ? zlib.gunzipSync(raw) : raw;
          resolve({ status: res.statusCode!, headers: res.headers, body: body.toString() });
        });
      })
      .on("error", reject)
      .end();
  });
}

describe("sending a route's answer", () => {
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    const app = express();
    app.use(compression());
    app.all("*", (req, res, next) => {
      const answer = ANSWERS[req.path];
      if (!answer) return next();
      sendAnswer(res, answer()).catch(next);
    });
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("sends a short JSON answer whole, with its length and uncompressed", async () => {
    const got = await get(port, "/short");
    expect(got.status).toBe(200);
    expect(got.headers["content-encoding"]).toBeUndefined();
    expect(got.headers["transfer-encoding"]).toBeUndefined();
    expect(got.headers["content-length"]).toBe(String(Buffer.byteLength(got.body)));
    expect(JSON.parse(got.body)).toEqual({ code: 200, msg: "ok", data: 1 });
  });

  it("still compresses a long JSON answer, and keeps its headers", async () => {
    const got = await get(port, "/long");
    expect(got.headers["content-encoding"]).toBe("gzip");
    expect(got.headers["set-cookie"]).toEqual(["a=1"]);
    expect(JSON.parse(got.body)).toEqual(LONG);
  });

  it("streams any other body piece by piece", async () => {
    const got = await get(port, "/stream");
    expect(got.headers["content-length"]).toBeUndefined();
    expect(got.headers["transfer-encoding"]).toBe("chunked");
    expect(got.body).toBe("piece 1\npiece 2\n");
  });

  it("answers HEAD with the length and no body, and a body-less answer with its status", async () => {
    const head = await get(port, "/short", "HEAD");
    expect(head.headers["content-length"]).toBe(
      String(Buffer.byteLength(JSON.stringify({ code: 200, msg: "ok", data: 1 }))),
    );
    expect(head.body).toBe("");
    expect((await get(port, "/empty")).status).toBe(204);
  });
});
