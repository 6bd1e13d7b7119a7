import type { Logger } from "pino";

/**
 * What the server hands every loader and action besides the request (server/remix-handler.ts).
 * Optional: loaders called outside the server (tests) get an empty context.
 */
export interface RequestContext {
  /** The request's id: in every log line about it, in the X-Request-Id header and on error pages. */
  requestId?: string;
  /** The Content-Security-Policy nonce that every inline script of this response carries. */
  cspNonce?: string;
  /** The request's logger (its lines carry the request id). */
  log?: Logger;
  /** Set when the document is an error page shown in place of a file route's answer: it carries no scripts. */
  scriptless?: boolean;
  /** Set when the body passed its route class's cap: the body was not read, the action must not run. */
  bodyTooLarge?: { limit: number };
}

declare module "@remix-run/node" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends RequestContext {}
}
