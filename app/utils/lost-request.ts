import type { ClientActionFunctionArgs, ShouldRevalidateFunctionArgs } from "@remix-run/react";
import { useSyncExternalStore } from "react";

/**
 * A form sent with JavaScript whose request brings no answer (the network failed, or the server did
 * not answer within the time limit) keeps the page and what was typed in it, and says why, instead
 * of showing the error page. A route opts in with `clientAction = keepFormWhenLost(limit)`; every
 * route on such a page (the root, layouts and the route itself) exports
 * `shouldRevalidate = skipRevalidationWhenLost`, because reloading their data after a lost request
 * would fail the same way. Without JavaScript the browser posts the form itself.
 */

export type LostRequest = "requestTimeout" | "requestFailed";

/** The time limits of a form's request, ms: settings may take longer, a data file longer still. */
export const FORM_LIMIT_MS = { default: 15_000, settings: 30_000, save: 120_000 } as const;

type LostAnswer = { lostRequest: LostRequest };

let current: { reason: LostRequest; path: string } | null = null;
const listeners = new Set<() => void>();

function setLost(value: typeof current) {
  current = value;
  for (const listener of listeners) listener();
}

/** Why the last form request was lost, while the page it was sent from is shown; else null. */
export function useLostRequest(pathname: string): LostRequest | null {
  const lost = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
    () => null,
  );
  return lost && lost.path === pathname ? lost.reason : null;
}

export function dismissLostRequest() {
  setLost(null);
}

/** The reason a request brought no answer, or null for anything else (thrown on). */
export function lostReason(error: unknown): LostRequest | null {
  if (error instanceof DOMException && error.name === "TimeoutError") return "requestTimeout";
  if (error instanceof TypeError) return "requestFailed";
  return null;
}

function withinLimit<T>(answer: Promise<T>, limitMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new DOMException("no answer in time", "TimeoutError")),
      limitMs,
    );
  });
  return Promise.race([answer, limit]).finally(() => clearTimeout(timer));
}

/** A route's `clientAction`: the server's action within `limitMs`; a lost request is answered here. */
export function keepFormWhenLost(limitMs: number = FORM_LIMIT_MS.default) {
  return async ({ serverAction }: Pick<ClientActionFunctionArgs, "serverAction">) => {
    setLost(null);
    try {
      return await withinLimit(serverAction(), limitMs);
    } catch (error) {
      const reason = lostReason(error);
      if (!reason) throw error;
      setLost({ reason, path: window.location.pathname });
      return { lostRequest: reason } satisfies LostAnswer;
    }
  };
}

export function skipRevalidationWhenLost({
  actionResult,
  defaultShouldRevalidate,
}: Pick<ShouldRevalidateFunctionArgs, "actionResult" | "defaultShouldRevalidate">): boolean {
  const lost =
    typeof actionResult === "object" && actionResult !== null && "lostRequest" in actionResult;
  return lost ? false : defaultShouldRevalidate;
}
