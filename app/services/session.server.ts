import { createCookie, createSessionStorage, redirect, type Session } from "@remix-run/node";
import { Identity } from "~/domain/codes";
import {
  createSessionRow,
  findSessionUser,
  readSessionData,
  removeSessionKey,
  revokeSessionRow,
  updateSessionData,
  type SessionUser,
} from "~/models/session.server";
import { env, type Env } from "~/utils/env.server";
import { safeRedirectPath } from "~/utils/safe-redirect";
import { sessionSecret } from "~/utils/secret.server";

export type { SessionUser };

const SESSION_TTL_SECONDS = 60 * 60 * 24 * 7;

/** A message a session carries to the first page it shows, and to no other. */
export type SessionNotice = "signedIn";

/** What a page session holds: the user, and a notice not yet shown. */
export type SessionData = { userId: number; notice: SessionNotice };

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
      return createSessionRow(
        userId,
        data,
        expires ?? new Date(Date.now() + SESSION_TTL_SECONDS * 1000),
      );
    },
    readData: readSessionData,
    updateData: updateSessionData,
    deleteData: revokeSessionRow,
  });
  return storage;
}

export function getSession(request: Request): Promise<Session<SessionData>> {
  return sessionStorage().getSession(request.headers.get("Cookie"));
}

const sessionPerRequest = new WeakMap<Request, Promise<Session<SessionData>>>();

/** The session of this request, read once per request. */
function requestSession(request: Request): Promise<Session<SessionData>> {
  let session = sessionPerRequest.get(request);
  if (!session) {
    session = getSession(request);
    sessionPerRequest.set(request, session);
  }
  return session;
}

const perRequest = new WeakMap<Request, Promise<SessionUser | null>>();

/** The signed-in user of this request (looked up once per request), or null. */
export function getSessionUser(request: Request): Promise<SessionUser | null> {
  let found = perRequest.get(request);
  if (!found) {
    found = (async () => {
      const userId = (await requestSession(request)).get("userId");
      return typeof userId === "number" ? findSessionUser(userId) : null;
    })();
    perRequest.set(request, found);
  }
  return found;
}

/**
 * Takes the session's notice: it is removed from the session's row, and only the request that
 * removed it answers it, so it is shown on one page only (the session's id, the cookie, stays).
 */
export async function takeSessionNotice(request: Request): Promise<SessionNotice | null> {
  const session = await requestSession(request);
  const notice = session.get("notice");
  if (!session.id || !notice) return null;
  return (await removeSessionKey(session.id, "notice")) ? notice : null;
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
 * so a session id planted before sign-in is worthless; `notice`, if given, is shown on the first
 * page. Returns the Set-Cookie value.
 */
export async function createUserSession(
  request: Request,
  userId: number,
  notice?: SessionNotice,
): Promise<string> {
  const storage = sessionStorage();
  const previous = await getSession(request);
  if (previous.id) await storage.destroySession(previous);
  const session = await storage.getSession();
  session.set("userId", userId);
  if (notice) session.set("notice", notice);
  return storage.commitSession(session);
}

/** Where "home" is for a user (the header's link): a person's own patient page, else the list. */
export function homePath(user: Pick<SessionUser, "id" | "identity" | "patient">): string {
  if (user.identity === Identity.Person && user.patient)
    return `/patientShow/${user.patient.id}/${user.id}/patientHome`;
  return "/patientShow/patients";
}

/**
 * Where a sign-in goes: `/active` for an account still to activate, else the page asked for (a
 * same-origin path), else the user's home. Home directly, not `/` (which redirects there): the
 * first page requested is the first page shown, and it shows the sign-in notice.
 */
export async function signInTarget(
  userId: number,
  active: boolean,
  redirectTo: string | undefined,
): Promise<string> {
  if (!active) return "/active";
  const user = await findSessionUser(userId);
  const home = user ? homePath(user) : "/";
  const wanted = safeRedirectPath(redirectTo, home);
  return wanted === "/" ? home : wanted;
}

/** Ends the session everywhere (the row is revoked) and clears the cookie. */
export async function destroySession(request: Request): Promise<string> {
  return sessionStorage().destroySession(await getSession(request));
}
