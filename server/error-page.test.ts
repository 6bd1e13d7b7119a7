import { describe, expect, it } from "vitest";
import { errorPageAnswer } from "../app/utils/error-page";
import { errorPageRequest } from "./error-page";

const pdf = (method = "GET") =>
  new Request("http://127.0.0.1:3000/12/print.pdf?start=2026-11-01&end=2026-11-07", {
    method,
    headers: { Cookie: "__session=abc", "Accept-Language": "pl" },
  });

describe("a file route's refusal becomes the app's error page", () => {
  it("asks for /error/<status> with the visitor's cookie and languages", () => {
    const page = errorPageRequest(pdf(), errorPageAnswer(403));
    expect([
      page?.url,
      page?.method,
      page?.headers.get("Cookie"),
      page?.headers.get("Accept-Language"),
    ]).toEqual(["http://127.0.0.1:3000/error/403", "GET", "__session=abc", "pl"]);
    expect(errorPageRequest(pdf("HEAD"), errorPageAnswer(404))?.url).toBe(
      "http://127.0.0.1:3000/error/404",
    );
  });

  it("leaves every other answer alone", () => {
    expect(errorPageRequest(pdf(), new Response("Forbidden", { status: 403 }))).toBeNull();
    expect(
      errorPageRequest(
        pdf(),
        new Response(null, { status: 200, headers: { "X-DiaCare-Error-Page": "403" } }),
      ),
    ).toBeNull();
    expect(
      errorPageRequest(
        pdf(),
        new Response(null, { status: 500, headers: { "X-DiaCare-Error-Page": "500" } }),
      ),
    ).toBeNull();
    expect(
      errorPageRequest(
        new Request("http://127.0.0.1:3000/12/print.pdf", { method: "POST", body: "x" }),
        errorPageAnswer(403),
      ),
    ).toBeNull();
  });
});
