// React Router's <Scripts>, started once the page has painted (docs/decisions/0040).
import {
  Children,
  Fragment,
  createElement,
  isValidElement,
  useContext,
  type ReactElement,
  type ReactNode,
} from "react";
import { Scripts, UNSAFE_FrameworkContext, type ScriptsProps } from "react-router";

type Element = ReactElement<{
  rel?: string;
  href?: string;
  type?: string;
  children?: ReactNode;
  dangerouslySetInnerHTML?: { __html: string };
}>;

/**
 * The page is whole without its scripts: server-rendered, with real links and forms. Fetched
 * as <Scripts> asks, from ~20 `<link rel="modulepreload">` in the head at the same high
 * priority as the stylesheet, they share a slow connection with it and hold back the first
 * paint. So the modules are asked for only once the page has painted its content (or at once
 * in a tab that is not shown): a classic inline script then runs React Router's module script
 * with the preloaded modules as imports after its own (which run first: in development, Vite's
 * refresh runtime), so the browser still asks for all of them at once. The entry module, which starts the page when it runs, stays a dynamic import
 * at the end, preloaded. On the client, where <Scripts> renders the same elements until the
 * page is hydrated, this renders the same elements too.
 */
export function PageScripts(props: ScriptsProps) {
  const entry = useContext(UNSAFE_FrameworkContext)?.manifest.entry.module;
  const preloads: string[] = [];
  const rewrite = (node: ReactNode): ReactNode => {
    if (!isValidElement(node)) return node;
    const element = node as Element;
    if (element.type === "link" && element.props.rel === "modulepreload") {
      if (element.props.href && element.props.href !== entry) preloads.push(element.props.href);
      return null;
    }
    if (element.type === "script" && element.props.type === "module") {
      const moduleScript = element.props.dangerouslySetInnerHTML?.__html ?? " ";
      const imports = preloads.map((href) => `import ${JSON.stringify(href)};`).join("\n");
      // The module's text waits in a data block (not run), in the page as written: a copy of the
      // page shared by many allows it by its hash (server/plugins/external/helmet.ts).
      const script = (attributes: { type?: string; id?: string }, text: string) =>
        createElement("script", {
          ...attributes,
          nonce: props.nonce,
          suppressHydrationWarning: true,
          dangerouslySetInnerHTML: { __html: text },
        });
      return createElement(
        Fragment,
        null,
        script({ type: "text/plain", id: MODULE_BLOCK_ID }, `${moduleScript}\n${imports}`),
        script({}, afterFirstPaint(entry)),
      );
    }
    if (element.type !== Fragment) return element;
    return createElement(Fragment, null, ...Children.toArray(element.props.children).map(rewrite));
  };
  // Scripts is a component of hooks only; called here, its hooks are this component's.
  return rewrite(Scripts(props) as ReactNode);
}

/** Past this, the scripts start without waiting for a first paint any longer. */
const FIRST_PAINT_WAIT_MS = 2_000;

/** The data block holding the module script that starts the page. */
const MODULE_BLOCK_ID = "page-module-script";

/** The inline script that, after the first paint (its contentful paint), preloads `entry` and runs the module script. */
function afterFirstPaint(entry: string | undefined): string {
  // JSON is a JS literal; "<" escaped so no "</script>" can end the inline script early.
  const literal = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");
  return `(() => {
  const nonce = document.currentScript.nonce;
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    const entry = ${literal(entry ?? null)};
    if (entry) document.head.append(Object.assign(document.createElement("link"), { rel: "modulepreload", href: entry }));
    document.body.append(Object.assign(document.createElement("script"), { type: "module", nonce, textContent: document.getElementById(${literal(MODULE_BLOCK_ID)}).textContent }));
  };
  if (document.visibilityState === "hidden" || !PerformanceObserver.supportedEntryTypes?.includes("paint")) return start();
  new PerformanceObserver((list, observer) => {
    if (!list.getEntriesByName("first-contentful-paint").length) return;
    observer.disconnect();
    setTimeout(start);
  }).observe({ type: "paint", buffered: true });
  setTimeout(start, ${FIRST_PAINT_WAIT_MS}); // a paint that never comes must not leave the page without its scripts
})();`;
}
