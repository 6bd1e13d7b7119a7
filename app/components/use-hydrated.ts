import { useSyncExternalStore } from "react";

const never = () => () => {};

/**
 * False during server rendering and while the page hydrates; true once JavaScript runs, also
 * in the first render of a component that mounts after hydration (e.g. on a client navigation),
 * so that such a component never shows its JavaScript-off form for a frame.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
