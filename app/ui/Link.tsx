// Links to this site's pages as plain anchors (docs/decisions/0045). React Router's <Link> resolves
// its path and sets up its own click handler, prefetching and discovery, a dozen hooks a link: on a
// search page's 90 links, about a tenth of the task that hydrates it. A path that starts with "/"
// needs no resolving, and one click handler for the whole document (LinkNavigation) navigates for
// every such link as <Link>'s own would. Anything else (a relative path, an object, <Link>'s other
// options) is React Router's <Link>.
import { useEffect } from "react";
import { Link as RouterLink, useNavigate, type LinkProps } from "react-router";

export function Link(props: LinkProps) {
  const { to, preventScrollReset, ...anchor } = props;
  const { discover, prefetch, reloadDocument, replace, state, relative, viewTransition } = anchor;
  const options = [discover, prefetch, reloadDocument, replace, state, relative, viewTransition];
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || options.some((o) => o !== undefined))
    return <RouterLink {...props} />;
  // data-discover: the router learns the routes of the links on the page (as for <Link>, which
  // writes "true"), and IdlePrefetch knows the link as one of the site's pages; "plain" tells
  // LinkNavigation the link is its to follow. data-scroll: the page keeps its scroll position (a
  // tab or a sort of the list in view).
  return <a {...anchor} href={to} data-discover="plain" data-scroll={preventScrollReset ? "keep" : undefined} />;
}

/**
 * Whether a click on a link is the router's to handle, as React Router decides for <Link>: the main
 * button, no key held (those open a tab or a window), the link's own window, not a download.
 */
function isPlainClick(event: MouseEvent, link: HTMLAnchorElement): boolean {
  return (
    !event.defaultPrevented &&
    event.button === 0 &&
    !(event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) &&
    (!link.target || link.target === "_self") &&
    !link.hasAttribute("download")
  );
}

/** Navigates for the plain links of the page (Link above): one listener for the whole document. */
export function LinkNavigation() {
  const navigate = useNavigate();
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const link = event.target instanceof Element ? event.target.closest('a[data-discover="plain"]') : null;
      if (!(link instanceof HTMLAnchorElement) || !isPlainClick(event, link)) return;
      // Until the page's last part has hydrated (HydrateLater), the browser follows the link itself:
      // a part still waiting for its turn would be drawn empty by a navigation.
      if (!document.documentElement.hasAttribute("data-started")) return;
      const url = new URL(link.href);
      if (url.origin !== location.origin) return;
      event.preventDefault();
      const to = url.pathname + url.search + url.hash;
      navigate(to, {
        // Like <Link>: a link to the page itself replaces the history entry instead of adding one.
        replace: to === location.pathname + location.search + location.hash,
        preventScrollReset: link.dataset.scroll === "keep",
      });
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, [navigate]);
  return null;
}
