import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { pipeBody } from "./pipe-body";

/** A body of `pieces` chunks of 1 KB that counts how many were asked for. */
function countedBody(pieces: number) {
  const state = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        state.pulled += 1;
        if (state.pulled > pieces) controller.close();
        else controller.enqueue(new Uint8Array(1024));
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { body, state };
}

/** A response that holds 2 KB and takes a piece only when `take` is called. */
function slowResponse() {
  const pending: (() => void)[] = [];
  const received: number[] = [];
  const res = new Writable({
    highWaterMark: 2048,
    write(chunk: Buffer, _encoding, done) {
      received.push(chunk.length);
      pending.push(done);
    },
  });
  const take = () => pending.shift()?.();
  return { res, received, take };
}

const turn = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("pipeBody", () => {
  it("asks for the next piece only when the response has room", async () => {
    const { body, state } = countedBody(20);
    const { res, received, take } = slowResponse();
    const done = pipeBody(body, res);
    await turn();
    // The second 1 KB piece fills the response's 2 KB: no third piece is asked for until the
    // response has written what it holds ('drain').
    expect(state.pulled).toBe(2);
    take();
    await turn();
    expect(state.pulled).toBe(2);
    take();
    await turn();
    expect(state.pulled).toBe(4);
    for (let i = 0; i < 40; i++) {
      take();
      await turn();
    }
    await done;
    expect(received.reduce((a, b) => a + b, 0)).toBe(20 * 1024);
    expect(res.writableFinished).toBe(true);
  });

  it("cancels the body when the client goes away", async () => {
    const { body, state } = countedBody(1000);
    const { res } = slowResponse();
    const done = pipeBody(body, res);
    await turn();
    res.destroy();
    await done;
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThan(10);
  });
});
