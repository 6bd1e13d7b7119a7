import express from "express";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { cspNonce, securityHeaders } from "./security-headers";

async function headersFor(https: boolean): Promise<Headers> {
  const app = express();
  app.use(cspNonce, securityHeaders({ https }));
  app.get("/", (_req, res) => res.send("ok"));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  try {
    return (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)).headers;
  } finally {
    server.close();
  }
}

describe("securityHeaders", () => {
  it("sends HSTS and upgrades requests only when the public URL is https", async () => {
    const secure = await headersFor(true);
    expect(secure.get("strict-transport-security")).toMatch(/max-age=31536000/);
    expect(secure.get("content-security-policy")).toContain("upgrade-insecure-requests");
    const plain = await headersFor(false);
    expect(plain.get("strict-transport-security")).toBeNull();
    expect(plain.get("content-security-policy")).not.toContain("upgrade-insecure-requests");
  });

  it("allows scripts only from the site and with the response's nonce", async () => {
    const csp = (await headersFor(false)).get("content-security-policy")!;
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{24}'(;|$)/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
  });
});
