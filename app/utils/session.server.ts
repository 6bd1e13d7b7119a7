import { createCookie, createSessionStorage, redirect, type Session } from "@remix-run/node";
import type { Prisma } from "@prisma/client";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { db } from "./db.server";
import { env, type Env } from "./env.server";

const SESSION_TTL_SECONDS = 60 * 60 * 24 * 7;

/** SESSION_SECRET, or outside production a random secret kept in DATA_DIR. */
export function sessionSecret(): string {
  const { SESSION_SECRET, DATA_DIR } = env();
  if (SESSION_SECRET) return SESSION_SECRET;
  const file = path.resolve(DATA_DIR, "session-secret");
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(path.dirname(file), { recursive: true });
    const secret = randomBytes(32).toString("base64url");
    try {
      writeFileSync(file, secret, { flag: "wx", mode: 0o600 });
      return secret;
    } catch {
      return readFileSync(file, "utf8").trim(); // another process wrote it first
    }
  }
}

/** What a page session holds. */
export type SessionData = { userId: number };

/** Cookies are Secure in production behind https (a plain-http demo on localhost could not sign in). */
export function secureCookies(config: Pick<Env, "NODE_ENV" | "APP_URL">): boolean {
  return config.NODE_ENV === "production" && config.APP_URL.startsWith("https:");
}

let storage: ReturnType<typeof createSessionStorage<SessionData>> | undefined;

/**
 * Page sessions: the httpOnly, SameSite=Lax cookie holds only a random id; the session row in
 * PostgreSQL holds the user, so any app server can answer and a sign-out revokes it everywhere.
 */
export function sessionStorage() {
  storage ??= createSessionStorage<SessionData>({
    cookie: createCookie("__session", {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: secureCookies(env()),
      secrets: [sessionSecret()],
      maxAge: SESSION_TTL_SECONDS,
    }),
    async createData(data, expires) {
      const userId = Number(data.userId);
      if (!Number.isInteger(userId)) throw new Error("a session is created for a user");
      const id = randomBytes(32).toString("base64url");
      await db().session.create({
        data: {
          id,
          userId,
          data: data as Prisma.InputJsonValue,
          expiresAt: expires ?? new Date(Date.now() + SESSION_TTL_SECONDS * 1000),
        },
      });
      return id;
    },
    async readData(id) {
      // Raw SQL: every page reads its session (docs/decisions/008-raw-sql-on-hot-paths.md).
      const rows = await db().$queryRaw<{ data: Record<string, unknown> }[]>`
        SELECT data FROM "Session" WHERE id = ${id} AND "revokedAt" IS NULL AND "expiresAt" >= now()`;
      return rows[0]?.data ?? null;
    },
    async updateData(id, data, expires) {
      await db().session.updateMany({
        where: { id, revokedAt: null },
        data: { data: data as Prisma.InputJsonValue, ...(expires ? { expiresAt: expires } : {}) },
      });
    },
    async deleteData(id) {
      await db().session.updateMany({ where: { id }, data: { revokedAt: new Date() } });
    },
  });
  return storage;
}

export function getSession(request: Request): Promise<Session<SessionData>> {
  return sessionStorage().getSession(request.headers.get("Cookie"));
}

type SessionUserSelect = {
  id: true;
  email: true;
  identity: true;
  role: true;
  active: true;
  isPass: true;
  auditReason: true;
  firstName: true;
  lastName: true;
  patient: { select: { id: true } };
  setting: { select: { lang: true; unit: true } };
};

export type SessionUser = Prisma.UserGetPayload<{ select: SessionUserSelect }>;

const perRequest = new WeakMap<Request, Promise<SessionUser | null>>();

type SessionUserRow = Omit<SessionUser, "patient" | "setting"> & {
  pid: number | null;
  lang: string | null;
  unit: number | null;
};

/** The user of a session, with the `SessionUser` shape, in one query (it runs on every page). */
async function sessionUserById(userId: number): Promise<SessionUser | null> {
  const rows = await db().$queryRaw<SessionUserRow[]>`
    SELECT u.id, u.email, u.identity, u.role::text AS role, u.active, u."isPass", u."auditReason", u."firstName", u."lastName",
           p.id AS pid, s.lang, s.unit
      FROM "User" u LEFT JOIN "Patient" p ON p."userId" = u.id LEFT JOIN "Setting" s ON s."userId" = u.id
     WHERE u.id = ${userId} AND NOT u.disabled AND u."deletedAt" IS NULL`;
  const row = rows[0];
  if (!row) return null;
  const { pid, lang, unit, ...user } = row;
  return {
    ...user,
    patient: pid === null ? null : { id: pid },
    setting: lang === null || unit === null ? null : { lang, unit },
  };
}

/** The signed-in user of this request (looked up once per request), or null. */
export function getSessionUser(request: Request): Promise<SessionUser | null> {
  let found = perRequest.get(request);
  if (!found) {
    found = (async () => {
      const session = await getSession(request);
      const userId = session.get("userId");
      return typeof userId === "number" ? sessionUserById(userId) : null;
    })();
    perRequest.set(request, found);
  }
  return found;
}

/**
 * The signed-in, activated user, or a redirect: to the sign-in page (coming back here
 * afterwards), or to /active for an account that still needs its activation code.
 */
export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (user?.active) return user;
  if (user) throw redirect("/active");
  const url = new URL(request.url);
  throw redirect(`/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
}

/** Pages for staff only (admin, editor): others get 403. */
export async function requireStaff(request: Request): Promise<SessionUser> {
  const user = await requireUser(request);
  if (user.role !== "admin" && user.role !== "editor")
    throw new Response("Forbidden", { status: 403 });
  return user;
}

/**
 * Signs a user in: any session this browser had is revoked and a new one (a new id) is made,
 * so a session id planted before sign-in is worthless. Returns the Set-Cookie value.
 */
export async function createUserSession(request: Request, userId: number): Promise<string> {
  const storage = sessionStorage();
  const previous = await getSession(request);
  if (previous.id) await storage.destroySession(previous);
  const session = await storage.getSession();
  session.set("userId", userId);
  return storage.commitSession(session);
}

/** Where "home" is for a user (the header's link): a person's own patient page, else the list. */
export function homePath(user: Pick<SessionUser, "id" | "identity" | "patient">): string {
  if (user.identity === 1 && user.patient)
    return `/patientShow/${user.patient.id}/${user.id}/patientHome`;
  return "/patientShow/patients";
}

/** Ends the session everywhere (the row is revoked) and clears the cookie. */
export async function destroySession(request: Request): Promise<string> {
  return sessionStorage().destroySession(await getSession(request));
}
