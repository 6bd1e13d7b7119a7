import { describe, expect, it } from "vitest";
import {
  errorOfFailure,
  failureOf,
  openCookies,
  pdfJobOf,
  pdfJobSchema,
  pdfJobTiming,
  renderCookies,
  renderRequestOf,
  sealCookies,
} from "./pdf-job.server";
import { pdfFailureAnswer, PdfRenderError } from "./pdf.server";

const SECRET = "a-session-secret-of-at-least-thirty-two-characters";
const DEADLINE = Date.UTC(2026, 10, 29, 12, 0, 0);

describe("render cookies", () => {
  it("keeps only the session, language and read-your-writes cookies", () => {
    expect(
      renderCookies("__session=abc.def; _ga=GA1.2; lng=de; dc_primary=1; other=x", [
        { name: "lng", value: "fr" },
        { name: "tracking", value: "y" },
      ]),
    ).toEqual([
      { name: "__session", value: "abc.def" },
      { name: "lng", value: "de" },
      { name: "dc_primary", value: "1" },
      { name: "lng", value: "fr" },
    ]);
    expect(renderCookies(null)).toEqual([]);
  });

  it("seals them so that the sealed text does not contain them, and opens them with the same secret", () => {
    const cookies = [{ name: "__session", value: "s%3Asession-id.signature" }];
    const sealed = sealCookies(cookies, SECRET);
    expect(sealed).not.toContain("session-id");
    expect(sealed.split(".")).toHaveLength(3);
    expect(openCookies(sealed, SECRET)).toEqual(cookies);
    // A fresh nonce each time: the same cookies never seal to the same text.
    expect(sealCookies(cookies, SECRET)).not.toBe(sealed);
  });

  it("refuses another secret, an altered text and garbage", () => {
    const sealed = sealCookies([{ name: "lng", value: "en" }], SECRET);
    expect(() => openCookies(sealed, `${SECRET}-other`)).toThrow();
    const [iv, body, tag] = sealed.split(".") as [string, string, string];
    const flipped = `${body[0] === "A" ? "B" : "A"}${body.slice(1)}`;
    expect(() => openCookies(`${iv}.${flipped}.${tag}`, SECRET)).toThrow();
    expect(() => openCookies("not-sealed", SECRET)).toThrow(/malformed/);
    expect(() => openCookies("", SECRET)).toThrow(/malformed/);
  });
});

describe("a render job", () => {
  const url = new URL(
    "http://127.0.0.1:3000/7/statisticsprint?start=2026-11-01&end=2026-11-14&print=1",
  );

  it("carries the path and query, never the origin, and the cookies only sealed", () => {
    const job = pdfJobOf(
      {
        url: url.href,
        cookieHeader: "__session=secret-value; _ga=1",
        landscape: true,
        paper: "letter",
      },
      url,
      DEADLINE,
      SECRET,
    );
    expect(job).toMatchObject({
      path: "/7/statisticsprint?start=2026-11-01&end=2026-11-14&print=1",
      landscape: true,
      paper: "letter",
      deadline: DEADLINE,
    });
    expect(JSON.stringify(job)).not.toContain("secret-value");
    expect(JSON.stringify(job)).not.toContain("127.0.0.1");
    expect(pdfJobSchema.parse(job)).toEqual(job);
  });

  it("leaves the cookies out for a page that needs none", () => {
    const job = pdfJobOf({ url: url.href }, url, DEADLINE, SECRET);
    expect(job).toEqual({
      path: url.pathname + url.search,
      landscape: false,
      paper: "a4",
      deadline: DEADLINE,
    });
  });

  it("is rendered on the worker's own origin whatever the path says", () => {
    const job = pdfJobOf({ url: url.href, cookieHeader: "__session=s1" }, url, DEADLINE, SECRET);
    const request = renderRequestOf(job, "http://127.0.0.1:3601/ignored/path", SECRET);
    expect(request.url).toBe(
      "http://127.0.0.1:3601/7/statisticsprint?start=2026-11-01&end=2026-11-14&print=1",
    );
    expect(request.cookies).toEqual([{ name: "__session", value: "s1" }]);
  });

  it("refuses data that is not a job of this app", () => {
    const valid = { path: "/supports/terms?print=1", deadline: DEADLINE };
    expect(pdfJobSchema.safeParse(valid).success).toBe(true);
    for (const path of [
      "//evil.example/x",
      "/\\evil.example",
      "http://evil.example/",
      "relative",
      "/a b",
    ]) {
      expect(pdfJobSchema.safeParse({ ...valid, path }).success).toBe(false);
    }
    expect(pdfJobSchema.safeParse({ ...valid, deadline: "soon" }).success).toBe(false);
    expect(pdfJobSchema.safeParse({ ...valid, paper: "a3" }).success).toBe(false);
    expect(pdfJobSchema.safeParse({ ...valid, url: "http://evil.example/" }).success).toBe(false);
    expect(pdfJobSchema.safeParse(null).success).toBe(false);
  });
});

describe("pdfJobTiming", () => {
  it("lets a job that lost its worker start again and finish within the wait", () => {
    // The default 30 s wait: expiry 12 s, renders bounded by 10 s.
    expect(pdfJobTiming(30_000)).toMatchObject({
      expireInSeconds: 12,
      renderTimeoutMs: 10_000,
      retryLimit: 1,
    });
    for (const wait of [1_000, 5_000, 30_000, 120_000, 300_000]) {
      const t = pdfJobTiming(wait);
      expect(t.renderTimeoutMs).toBeGreaterThan(0);
      expect(t.renderTimeoutMs).toBeLessThan(t.expireInSeconds * 1000);
      // Worst case for a job whose worker was killed: a poll, expiry, two maintenance intervals
      // (pg-boss skips a run that comes early), a poll, a render.
      const worst =
        2 * t.pollingIntervalSeconds * 1000 +
        t.expireInSeconds * 1000 +
        2 * t.maintenanceIntervalSeconds * 1000 +
        t.renderTimeoutMs;
      if (wait >= 10_000) expect(worst).toBeLessThanOrEqual(wait);
    }
  });
});

describe("a stored failure", () => {
  it("is answered as the inline render's failure would be", () => {
    const cases: [PdfRenderError, number, string][] = [
      [new PdfRenderError("page", "/x answered 404", 404), 404, "common:errors.403"],
      [new PdfRenderError("page", "/x answered 401", 401), 401, "reports:common.pdf.failed"],
      [new PdfRenderError("page", "/x answered 500", 500), 502, "reports:common.pdf.failed"],
      [new PdfRenderError("timeout", "late"), 504, "reports:common.pdf.timeout"],
      [new PdfRenderError("crashed", "died"), 503, "reports:common.pdf.crashed"],
      [new PdfRenderError("busy", "full"), 503, "reports:common.pdf.busy"],
      [new PdfRenderError("refused", "elsewhere"), 500, "reports:common.pdf.failed"],
    ];
    for (const [error, status, messageKey] of cases) {
      const back = errorOfFailure(failureOf(error));
      expect(back).toBeInstanceOf(PdfRenderError);
      expect(pdfFailureAnswer(back)).toEqual({ status, messageKey });
    }
  });

  it("keeps Retry-After for an account limit", () => {
    const back = errorOfFailure({ code: "account-limit", message: "two already" });
    expect(pdfFailureAnswer(back)).toEqual({
      status: 429,
      messageKey: "reports:common.pdf.accountLimit",
      retryAfterSeconds: 5,
    });
  });
});
