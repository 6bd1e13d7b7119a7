import { describe, expect, it } from "vitest";
import { db, readDb, withReadRouting } from "../app/utils/db.server";
import { hasPrimaryCookie, primaryCookie, PRIMARY_COOKIE, readsFromPrimary } from "./read-routing";

describe("readsFromPrimary", () => {
  it("sends a writing request's reads to the primary", () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE", "post"])
      expect(readsFromPrimary(method, "/api/patient-data/sliceSave", undefined)).toBe(true);
  });

  it("counts the report calls that read with POST as reads", () => {
    expect(readsFromPrimary("POST", "/api/cgms/cgm-record/agp", undefined)).toBe(false);
    expect(readsFromPrimary("POST", "/api/patient-data/pdf", undefined)).toBe(false);
    expect(readsFromPrimary("PUT", "/api/patient-data/pdf", undefined)).toBe(true);
    expect(readsFromPrimary("POST", "/api/patient-data/pdf/x", undefined)).toBe(true);
  });

  it("lets a reading request read from the standby unless it carries the cookie", () => {
    expect(readsFromPrimary("GET", "/", undefined)).toBe(false);
    expect(readsFromPrimary("GET", "/", "lng=en; __session=abc")).toBe(false);
    expect(readsFromPrimary("GET", "/", `lng=en; ${PRIMARY_COOKIE}=1`)).toBe(true);
    expect(readsFromPrimary("HEAD", "/", `${PRIMARY_COOKIE}=1`)).toBe(true);
  });

  it("matches the cookie's name exactly", () => {
    expect(hasPrimaryCookie(`x${PRIMARY_COOKIE}=1`)).toBe(false);
    expect(hasPrimaryCookie(`${PRIMARY_COOKIE}x=1`)).toBe(false);
    expect(hasPrimaryCookie(` ${PRIMARY_COOKIE}=1`)).toBe(true);
  });

  it("writes a short-lived cookie, Secure over https", () => {
    expect(primaryCookie(false)).toBe(
      `${PRIMARY_COOKIE}=1; Max-Age=10; Path=/; HttpOnly; SameSite=Lax`,
    );
    expect(primaryCookie(true)).toMatch(/; Secure$/);
  });
});

describe("readDb", () => {
  const saved = { ...process.env };
  const withEnv = (vars: Record<string, string | undefined>, work: () => void) => {
    Object.assign(process.env, vars);
    try {
      work();
    } finally {
      process.env = { ...saved };
      globalThis.__diacarePrisma = undefined;
      globalThis.__diacareReadPrisma = undefined;
    }
  };
  const primaryUrl = "postgresql://u@127.0.0.1:1/primary";
  const replicaUrl = "postgresql://u@127.0.0.1:2/replica";

  it("is the primary without DATABASE_READ_URL, in a request or not", () => {
    withEnv({ DATABASE_URL: primaryUrl, DATABASE_READ_URL: undefined }, () => {
      delete process.env.DATABASE_READ_URL;
      expect(readDb()).toBe(db());
      expect(withReadRouting({ primary: false }, () => readDb())).toBe(db());
    });
  });

  it("is the standby only inside a request that may read from it", () => {
    withEnv({ DATABASE_URL: primaryUrl, DATABASE_READ_URL: replicaUrl }, () => {
      expect(readDb()).toBe(db());
      expect(withReadRouting({ primary: true }, () => readDb())).toBe(db());
      const replica = withReadRouting({ primary: false }, () => readDb());
      expect(replica).not.toBe(db());
      expect(withReadRouting({ primary: false }, () => readDb())).toBe(replica);
    });
  });
});
