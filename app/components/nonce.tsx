import { createContext, useContext } from "react";

const NonceContext = createContext("");

/**
 * The Content-Security-Policy nonce of the response being rendered (server only). In the browser
 * it is empty: browsers hide a script's nonce attribute after parsing, so the empty value matches
 * what hydration finds.
 */
export const NonceProvider = NonceContext.Provider;

export function useNonce(): string {
  return useContext(NonceContext);
}
