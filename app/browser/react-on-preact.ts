// What the browser build imports as "react": Preact's compatibility layer, plus the
// one React 19 hook React Router's RouterProvider calls that the layer lacks
// (docs/decisions/0035-preact-in-the-browser.md). The server still renders with React.
import { default as compat } from "preact/compat";

// @ts-expect-error -- compat's typings declare `export =`; the module itself has named exports
export * from "preact/compat";

/**
 * React Router sets optimistic router state only with `useTransitions` on, which this
 * app leaves off; without pending optimistic updates React's hook returns its input.
 */
export function useOptimistic<State>(passthrough: State): [State, (action: unknown) => void] {
  return [passthrough, () => {}];
}

export default { ...compat, useOptimistic };
