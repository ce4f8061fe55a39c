// Page links with 35 px buttons (docs/product.md §9): first, previous, a window around the
// current page, next, last. Plain links, so paging works without JavaScript.
// With it, the page that follows takes focus to the top of its list: the link
// followed would otherwise keep it below the new rows, off screen.
import { useEffect, useRef, type MouseEvent } from "react";
import { useLocation } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { focusRegion } from "#app/ui/shell/focus.ts";

function pageWindow(current: number, count: number, span = 2): (number | "gap")[] {
  const pages = new Set([1, count]);
  for (let p = current - span; p <= current + span; p++) if (p >= 1 && p <= count) pages.add(p);
  const sorted = [...pages].sort((a, b) => a - b);
  const out: (number | "gap")[] = [];
  sorted.forEach((p, i) => {
    if (i > 0 && p - sorted[i - 1] > 1) out.push("gap");
    out.push(p);
  });
  return out;
}

export function Pagination({
  page,
  pageCount,
  href,
  label = "Pagination",
}: {
  page: number;
  pageCount: number;
  href: (page: number) => string;
  label?: string;
}) {
  const nav = useRef<HTMLElement>(null);
  const followed = useRef(false);
  const location = useLocation();
  useEffect(() => {
    if (!followed.current || !nav.current) return;
    followed.current = false;
    // The list this pagination belongs to: its section, else the page.
    const region = nav.current.closest("section") ?? document.getElementById("main");
    if (region) focusRegion(region);
  }, [location]);
  // Only a click the router follows here (not one that opens a new tab).
  const follow = (e: MouseEvent) => {
    followed.current = e.button === 0 && !(e.metaKey || e.ctrlKey || e.shiftKey || e.altKey);
  };
  if (pageCount <= 1) return null;
  // rel names the neighbours for browsers and crawlers; the shell prefetches the next page (IdlePrefetch).
  const arrow = (to: number, text: string, name: string, rel: "prev" | "next") =>
    to < 1 || to > pageCount || to === page ? (
      <span className="page-btn opacity-40" aria-hidden="true">
        {text}
      </span>
    ) : (
      <Link to={href(to)} className="page-btn" aria-label={name} rel={rel} preventScrollReset={false} onClick={follow}>
        {text}
      </Link>
    );
  return (
    <nav ref={nav} aria-label={label} className="mt-3 flex flex-wrap items-center gap-1">
      {arrow(page - 1, "‹", "Previous page", "prev")}
      {pageWindow(page, pageCount).map((p, i) =>
        p === "gap" ? (
          <span key={`gap-${i}`} className="px-1 text-slate-400" aria-hidden="true">
            …
          </span>
        ) : p === page ? (
          <span key={p} className="page-btn border-brand-600 bg-brand-600 font-semibold text-white" aria-current="page">
            {p}
          </span>
        ) : (
          <Link key={p} to={href(p)} className="page-btn" aria-label={`Page ${p}`} onClick={follow}>
            {p}
          </Link>
        ),
      )}
      {arrow(page + 1, "›", "Next page", "next")}
    </nav>
  );
}
