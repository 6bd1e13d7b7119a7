import type { IncomingMessage, ServerResponse } from "node:http";

const KB = 1024;
const MB = 1024 * KB;

/** The cap of a route class: the most bytes a request body may hold, counted as it arrives. */
export interface BodyLimitClass {
  name: string;
  bytes: number;
  /** Paths (without a trailing `.data`) whose requests belong to this class. */
  matches: (path: string) => boolean;
}

/** Forms and JSON: every route not named in a larger class. */
export const DEFAULT_BODY_LIMIT: BodyLimitClass = {
  name: "form",
  bytes: 64 * KB,
  matches: () => true,
};

const DEVICE_SLICE_PATHS = new Set([
  "/api/patient-data/sliceSave",
  "/api/patient-data/save",
  "/api/patient-data/saveCgmsData",
  "/api/patient-data/saveSugar",
]);

/**
 * Every route that accepts more than a form declares its class here, and only here: the server
 * reads no body past its class's cap. Files (a CSV import, the report logo) get 2 MB, counted over
 * the whole multipart body. The upload wizard's error reports get 2 MB too: 250 reports of 2048
 * characters are at most about 1.6 MB of JSON (3 bytes of UTF-8 a character). A device upload
 * route adds its own class with the slice size its API declares.
 */
export const BODY_LIMIT_CLASSES: readonly BodyLimitClass[] = [
  { name: "file", bytes: 2 * MB, matches: (path) => path === "/newsetting" },
  // A CSV file of at most 2 MB (checked on its own) and the import's other fields.
  {
    name: "csv",
    bytes: 2 * MB + 64 * KB,
    matches: (path) =>
      path === "/api/patient-data/importCsv" || /^\/patientShow\/[^/]+\/import$/.test(path),
  },
  // One slice of at most 1,000 device records (about 350 bytes each as JSON).
  { name: "device-slice", bytes: 1 * MB, matches: (path) => DEVICE_SLICE_PATHS.has(path) },
  {
    name: "errorReports",
    bytes: 2 * MB,
    matches: (path) => path === "/api/patient-data/uploadErrLog",
  },
  // A Nightscout post: an uploader's backfill of a month of one-minute readings (at most 50,000
  // records of about 150 bytes).
  { name: "nightscout", bytes: 8 * MB, matches: (path) => /^\/ns\/[^/]+\/api\/v1\//.test(path) },
];

/** The class of a request path; Remix's `.data` requests share their page's class. */
export function bodyLimitFor(path: string): BodyLimitClass {
  const page = path.endsWith(".data") ? path.slice(0, -".data".length) || "/" : path;
  return BODY_LIMIT_CLASSES.find((c) => c.matches(page)) ?? DEFAULT_BODY_LIMIT;
}

export type BodyRead = { ok: true; body: Buffer | null } | { ok: false; limit: number };

/**
 * Reads a request body into memory, never more than `limit` bytes: a declared Content-Length over
 * the cap is refused before a byte is read, and a chunked body is refused as soon as its count
 * passes the cap. After a refusal the rest stays unread (the socket is paused; the caller answers
 * and closes the connection).
 */
export function readBodyWithin(req: IncomingMessage, limit: number): Promise<BodyRead> {
  const declared = req.headers["content-length"];
  const chunked = req.headers["transfer-encoding"] !== undefined;
  if (declared === undefined && !chunked) return Promise.resolve({ ok: true, body: null });
  if (declared !== undefined && Number(declared) > limit)
    return Promise.resolve({ ok: false, limit });

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("aborted", onAborted);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) {
        cleanup();
        req.pause();
        chunks.length = 0;
        resolve({ ok: false, limit });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve({
        ok: true,
        body:
          received === 0 && !chunked && Number(declared) === 0
            ? null
            : Buffer.concat(chunks, received),
      });
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onAborted = () => onError(new Error("request aborted"));
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("aborted", onAborted);
  });
}

/** How long a refused upload's connection stays half-open after the answer (see below). */
const LINGER_MS = 2000;

/**
 * After a refusal the rest of the body stays unread and the connection is closed. Node would cut
 * it as soon as the answer is written; with unread bytes pending, the kernel then resets the
 * connection and the client (still sending) may never see the answer. So the server only ends its
 * side after the answer, keeps reading nothing, and cuts the connection after a short grace period.
 */
export function closeWithoutReading(req: IncomingMessage, res: ServerResponse) {
  res.setHeader("Connection", "close");
  const socket = req.socket;
  socket.destroySoon = () => {
    req.pause();
    socket.pause();
    socket.end();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}
