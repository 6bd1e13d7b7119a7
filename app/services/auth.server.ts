import { Authenticator, AuthorizationError } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { verifyLogin } from "~/models/account.server";
import { clientIp } from "~/models/rate-limit.server";
import { loginSchema } from "~/schemas/auth";
import { sessionStorage } from "./session.server";

export type SignedIn = { userId: number; active: boolean };

/** A refused sign-in; `retryAfterSeconds` is set when a rate limit refused it. */
export class SignInRefused extends AuthorizationError {
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

let authenticator: Authenticator<SignedIn> | undefined;

/**
 * remix-auth with one form strategy: email, password and sign-in type (identity). Failures are
 * AuthorizationErrors whose message is an `auth` i18n key and whose cause, for a refusal by a
 * rate limit, is a SignInRefused with the seconds to wait. The session itself is made by
 * `createUserSession`, which rotates the session id.
 */
export function auth(): Authenticator<SignedIn> {
  if (authenticator) return authenticator;
  authenticator = new Authenticator<SignedIn>(sessionStorage() as never, {
    sessionKey: "userId",
    throwOnError: true,
  });
  authenticator.use(
    new FormStrategy(async ({ form, request }) => {
      const parsed = loginSchema.safeParse(Object.fromEntries(form));
      if (!parsed.success)
        throw new AuthorizationError(parsed.error.issues[0]?.message ?? "errors.wrongCredentials");
      const result = await verifyLogin({ ...parsed.data, ip: clientIp(request) });
      if (!result.ok) throw new SignInRefused(result.error, result.retryAfterSeconds);
      return { userId: result.userId, active: result.active };
    }),
    "credentials",
  );
  return authenticator;
}

export { AuthorizationError };
