// What the browser build imports as "react-dom/client": Preact's roots, made to hydrate a
// React Router document the way react-dom does (docs/decisions/0035-preact-in-the-browser.md).
import { Component, Fragment, createElement, options, type ComponentChildren, type Ref, type VNode } from "preact";
import { hydrate, render } from "preact/compat";
import { hydrateInTurns, hydrateParts } from "#app/ui/shell/HydrateLater.tsx";

export { createRoot } from "preact/compat/client";

hydrateInTurns(); // the page's header, main and footer hydrate in turns (HydrateLater)

/**
 * React lets a root suspend while it hydrates, and React Router's HydratedRouter always
 * does: its first render throws the promise of its decoded server state. Preact resumes a
 * suspended hydration at the first DOM node it would have claimed, and a document's is
 * <html>, which it would then render a second <html> into. So the first render, the one
 * that suspends, happens off the page, and the document is hydrated once it has settled.
 */
export async function hydrateRoot(container: Element | Document, children: ComponentChildren) {
  await yieldToBrowser(); // the page's first paint, if it is due, before any rendering
  let suspended: unknown;
  const scratch = document.createElement("div");
  render(createElement(FirstSuspension, { onSuspend: (thrown) => (suspended = thrown) }, children), scratch);
  render(null, scratch);
  if (suspended instanceof Promise) await suspended.catch(() => {});
  await yieldToBrowser();
  hydrate(children, container as unknown as Element);
  await hydrateParts(); // the parts left for later, a task each (HydrateLater)
  // The scripts wait for the first paint, often past the load event (app/ui/shell/PageScripts.tsx):
  // this says when the page is live.
  document.documentElement.setAttribute("data-started", "");
}

/**
 * Ends the current task, so starting the page is two or three shorter tasks instead of one
 * long one that a tap or the first paint would have to wait out (Lighthouse's total blocking time).
 */
const yieldToBrowser = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Catches what its children throw while they render (a thrown promise: "suspend until this settles"), then renders nothing. */
class FirstSuspension extends Component<
  { children?: ComponentChildren; onSuspend: (thrown: unknown) => void },
  { caught: boolean }
> {
  componentDidCatch(thrown: unknown) {
    this.props.onSuspend(thrown);
    this.setState({ caught: true }); // Preact counts a boundary that updates itself as having handled it
  }
  render() {
    return this.state.caught ? null : this.props.children;
  }
}

/**
 * React applies a <select>'s defaultValue when the select mounts, and never again; Preact's
 * compat layer selects the matching option whenever defaultValue changes, so a form whose
 * answer no longer carries the values (a failed post) would undo the visitor's choice.
 * A select the server rendered already shows its default (an option the markup marks
 * selected) and may since have been changed by a visitor quicker than the page's script:
 * hydrating it leaves the choice alone.
 */
const selectsWithDefault = new WeakSet<HTMLSelectElement>();
function selectDefaultOnMountOnly(vnode: VNode) {
  const props = vnode.props as { defaultValue?: unknown; value?: unknown; multiple?: boolean };
  if (props.defaultValue == null || props.value != null || props.multiple) return;
  const initial = String(props.defaultValue);
  delete props.defaultValue;
  const ref = vnode.ref as Ref<HTMLSelectElement> | undefined;
  vnode.ref = (select: HTMLSelectElement | null) => {
    if (select && !selectsWithDefault.has(select)) {
      selectsWithDefault.add(select);
      const fromServer = [...select.options].some((option) => option.defaultSelected);
      if (!fromServer) select.value = initial;
    }
    if (typeof ref === "function") ref(select);
    else if (ref) ref.current = select;
  };
}

const previousVNodeHook = options.vnode;
options.vnode = (vnode: VNode) => {
  // Preact renders a document into its <html> element, so the <html> the app renders (its
  // attributes never change after the server wrote them) is a fragment of its children.
  if (vnode.type === "html") vnode.type = Fragment as unknown as string;
  else if (vnode.type === "select") selectDefaultOnMountOnly(vnode);
  previousVNodeHook?.(vnode);
};
