import type { Writable } from "node:stream";

/**
 * Writes an answer's body (a web ReadableStream) to the HTTP response, taking the next piece only
 * when the response has room for it: a client that downloads slowly slows the producer down
 * instead of having the rest of the body pile up in the server's memory. When the client goes
 * away the body is cancelled, which stops whatever produces it (a streamed export, for one).
 * `flush` is called after each piece when the response has one (the compression middleware's), so
 * that streamed pages reach the browser as they are rendered.
 */
export async function pipeBody(
  body: ReadableStream<Uint8Array>,
  res: Writable & { flush?: () => void },
): Promise<void> {
  const reader = body.getReader();
  let gone = false;
  const onClose = () => {
    gone = true;
    reader.cancel().catch(() => {});
  };
  res.once("close", onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || gone) break;
      const room = res.write(value);
      res.flush?.();
      if (!room && !gone)
        await new Promise<void>((resolve) => {
          const settle = () => {
            res.off("drain", settle);
            res.off("close", settle);
            resolve();
          };
          res.on("drain", settle);
          res.on("close", settle);
        });
    }
    if (!gone) res.end();
  } catch (error) {
    res.destroy(error instanceof Error ? error : new Error(String(error)));
    throw error;
  } finally {
    res.off("close", onClose);
  }
}
