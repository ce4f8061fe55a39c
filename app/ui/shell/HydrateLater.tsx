// Hydration in turns (docs/decisions/0054-hydration-in-turns.md). Hydrating a whole page is one
// task, and on a phone a task that long delays the first tap (Lighthouse's total blocking time).
// A part of the page wrapped in <HydrateLater> keeps the server's DOM while the rest of the page
// hydrates, and is hydrated in a task of its own right after: Preact's Suspense leaves the markup of
// a part that suspends during hydration on screen, and resumes hydrating at it once the part's
// promise settles. The server renders the part as it is.
import { Component, Suspense, type ReactElement } from "react";

/**
 * Whether parts hydrate in turns: only under the browser build's Preact root, which says so as it
 * loads (app/browser/react-dom-client-on-preact.ts). The server, and React's own hydration on the
 * dev server, render every part as it is.
 */
let inTurns = false;

/** Whether the page's first hydration is still going on: true until every part has had its turn. */
let hydrating = false;

/** Called once by the browser's Preact root, before it hydrates anything. */
export function hydrateInTurns() {
  inTurns = hydrating = true;
}

/** The parts waiting for their turn, in the order the first hydration met them (the page's order). */
const waiting: Array<() => void> = [];

/**
 * Hydrates each part left for later in a task of its own, in the page's order (a part met while
 * another resumes joins the queue), then ends the first hydration. Called once the page's own
 * hydration has returned (app/browser/react-dom-client-on-preact.ts).
 */
export async function hydrateParts(): Promise<void> {
  for (let part = waiting.shift(); part; part = waiting.shift()) {
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    part(); // Preact resumes the part in this task's microtasks.
  }
  hydrating = false;
}

/** Whether the page is still in its first hydration: a list mounted now meets the server's DOM. */
export function isFirstHydration(): boolean {
  return hydrating;
}

/**
 * Throws its turn (a promise) while the page first hydrates, so Suspense keeps the part's server
 * DOM; once the turn comes, renders the part. A class, so the instance Suspense resumes is the one
 * that knows its turn has come (a suspended component's hooks are not kept).
 */
class Turn extends Component<{ children: ReactElement }> {
  private ready = !hydrating;
  private turn?: Promise<void>;
  render() {
    if (this.ready) return this.props.children;
    this.turn ??= new Promise<void>((resolve) =>
      waiting.push(() => {
        this.ready = true;
        resolve();
      }),
    );
    throw this.turn;
  }
}

/**
 * Renders `children`, one element (the server's DOM of the part Preact keeps is that element), and
 * while the page first hydrates, hydrates it in a later task than the rest of the page. The
 * boundary stays in place afterwards: a tree that changed shape would be rendered anew.
 */
export function HydrateLater({ children }: { children: ReactElement }) {
  if (!inTurns) return children;
  return (
    <Suspense fallback={null}>
      <Turn>{children}</Turn>
    </Suspense>
  );
}
