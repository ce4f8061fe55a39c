// Link prefetch when idle (docs/product.md §9): once the visitor has left the page
// alone for 2,000 ms (no key, pointer, touch or wheel) and the browser is idle, the
// links of the page's content that are in view (the results' offer and network links,
// the next page) load their page's code and data ahead of the click, through React
// Router's PrefetchPageLinks. Waiting for a quiet page keeps prefetches from competing
// with what the visitor is doing (typing a search, ticking filters). Never on a 2g
// connection, with data saver on, or offline: the visitor pays for every byte.
import { useContext, useEffect, useState } from "react";
import { PrefetchPageLinks, UNSAFE_DataRouterContext, useLocation } from "react-router";

/** How long the page must be left alone before its links are prefetched (also requestIdleCallback's timeout). */
const PREFETCH_IDLE_MS = 2_000;
const INTERACTIONS = ["keydown", "pointerdown", "touchstart", "wheel"] as const;

/** How often, and how many times, a page whose route is not known yet is looked at again. */
const DISCOVERY_LOOK_MS = 250;
const DISCOVERY_LOOKS = 12;

/**
 * At most this many pages per page view: a result list shows 20 offers and each prefetch
 * costs the server a page's data (uncached for a signed-in visitor), so a visitor who
 * merely looks costs a few page views, not twenty. The first links in view are the likeliest clicks.
 */
const PREFETCH_MAX_PAGES = 6;

type Connection = { saveData?: boolean; effectiveType?: string };

/** False on a 2g connection ("2g", "slow-2g"), with data saver on, or offline. */
function prefetchAllowed(): boolean {
  const connection = (navigator as Navigator & { connection?: Connection }).connection;
  return navigator.onLine && !connection?.saveData && !connection?.effectiveType?.includes("2g");
}

/** Runs `run` once the page has had PREFETCH_IDLE_MS without interaction and the browser is idle; returns a cancel. */
function whenIdle(run: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let idle: number | undefined;
  const stopListening = () => INTERACTIONS.forEach((type) => window.removeEventListener(type, restart, true));
  const settled = () => {
    stopListening();
    // Safari has no requestIdleCallback: the quiet time alone decides there.
    if (typeof requestIdleCallback === "function") idle = requestIdleCallback(run, { timeout: PREFETCH_IDLE_MS });
    else run();
  };
  function restart() {
    clearTimeout(timer);
    timer = setTimeout(settled, PREFETCH_IDLE_MS);
  }
  INTERACTIONS.forEach((type) => window.addEventListener(type, restart, { capture: true, passive: true }));
  restart();
  return () => {
    stopListening();
    clearTimeout(timer);
    if (idle !== undefined) cancelIdleCallback(idle);
  };
}

/**
 * A link this app navigates to itself (marked data-discover, app/ui/Link.tsx), as path and
 * query. Links to the page itself (tabs, sorts, filters) would each run a search the visitor
 * may never ask for: of those, only the next page (rel="next").
 */
function pageOf(link: HTMLAnchorElement): string | null {
  if ((link.target && link.target !== "_self") || link.hasAttribute("download")) return null;
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin) return null;
  if (url.pathname === location.pathname && link.rel !== "next") return null;
  return url.pathname + url.search;
}

export function IdlePrefetch() {
  const router = useContext(UNSAFE_DataRouterContext)?.router;
  const { pathname, search } = useLocation();
  const at = pathname + search;
  // The pages found on the page at `at`: a navigation starts the list afresh.
  const [found, setFound] = useState<{ at: string; pages: string[] }>({ at, pages: [] });

  useEffect(() => {
    let observer: IntersectionObserver | undefined;
    const cancel = whenIdle(() => {
      observer = new IntersectionObserver((entries) => {
        // Asked per batch: the connection can change (data saver switched on, offline) while the page is open.
        if (!prefetchAllowed()) return;
        const shown = entries.filter((e) => e.isIntersecting).map((e) => e.target as HTMLAnchorElement);
        shown.forEach((link) => observer?.unobserve(link));
        const pages = shown.map(pageOf).filter((p): p is string => p !== null);
        if (pages.length)
          setFound((known) => ({
            at,
            pages: [...new Set([...(known.at === at ? known.pages : []), ...pages])].slice(0, PREFETCH_MAX_PAGES),
          }));
      });
      document.querySelectorAll<HTMLAnchorElement>("main a[data-discover]").forEach((a) => observer?.observe(a));
    });
    return () => {
      cancel();
      observer?.disconnect();
    };
  }, [at]);

  // A page is prefetched once the router knows its route. Route discovery (the router asking
  // the server for the routes of the links on the page) may still be under way and announces
  // nothing when done, so a page not yet known is looked at again a little later, a few times.
  const known = (page: string) => router?.match(page)?.every((m) => m.route.path !== "*") ?? false;
  const pages = found.at === at ? found.pages : [];
  const waiting = pages.some((page) => !known(page));
  const [looks, setLooks] = useState({ at, count: 0 });
  const count = looks.at === at ? looks.count : 0;
  useEffect(() => {
    if (!waiting || count >= DISCOVERY_LOOKS) return;
    const handle = setTimeout(() => setLooks({ at, count: count + 1 }), DISCOVERY_LOOK_MS);
    return () => clearTimeout(handle);
  }, [at, waiting, count]);

  return pages.filter(known).map((page) => <PrefetchPageLinks key={page} page={page} />);
}
