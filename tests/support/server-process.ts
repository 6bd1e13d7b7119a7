// Starts the built app (`server/start.ts`, as `npm start` does) on a free loopback port, for tests
// that need the real HTTP server: body caps, headers, request ids, graceful shutdown.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  baseUrl: string;
  /** Everything the server wrote to stdout and stderr so far. */
  output: () => string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Runs `tsx server/start.ts` with `env` added; resolves once /healthz answers or the process exits. */
export async function startServer(
  env: Record<string, string>,
  { waitForHealth = true } = {},
): Promise<ServerProcess> {
  if (!existsSync(path.resolve("build/index.js")))
    throw new Error("build/index.js is missing: run `npx remix build` first");
  const port = await freePort();
  const child = spawn(path.resolve("node_modules/.bin/tsx"), ["server/start.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => resolve(code)),
  );
  const server: ServerProcess = {
    child,
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    output: () => output,
    exited,
  };
  if (!waitForHealth) return server;
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + 110_000;
  while (Date.now() < deadline && !gone) {
    try {
      if ((await fetch(`${server.baseUrl}/healthz`)).ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill("SIGKILL");
  throw new Error(`server did not start:\n${output}`);
}

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A request through node:http, which reads an early answer while the body is still being sent.
 * `chunks` are written one by one (chunked, unless `contentLength` is given); `stopWhenAnswered`
 * stops sending once the answer has arrived and reports how many chunks were sent.
 */
export function rawRequest(
  url: string,
  {
    method = "POST",
    headers = {},
    chunks = [],
    contentLength,
  }: {
    method?: string;
    headers?: Record<string, string>;
    chunks?: Buffer[];
    contentLength?: number;
  },
): Promise<RawAnswer & { chunksSent: number }> {
  return new Promise((resolve, reject) => {
    let chunksSent = 0;
    let answered = false;
    const request = http.request(url, {
      method,
      headers: {
        ...headers,
        ...(contentLength !== undefined ? { "Content-Length": String(contentLength) } : {}),
      },
    });
    request.on("response", (response) => {
      answered = true;
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (part: string) => (body += part));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body, chunksSent }),
      );
      response.on("error", reject);
    });
    // After an early answer the server closes the connection: writing on is expected to fail.
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    const writeNext = () => {
      if (answered) return;
      const chunk = chunks[chunksSent];
      if (!chunk) {
        request.end();
        return;
      }
      chunksSent++;
      request.write(chunk, () => setImmediate(writeNext));
    };
    writeNext();
  });
}
