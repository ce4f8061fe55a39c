// Page links with 35 px buttons (docs/product.md §9): first, previous, a window around the
// current page, next, last. Plain links, so paging works without JavaScript.
import { Link } from "react-router";

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
  if (pageCount <= 1) return null;
  // rel names the neighbours for browsers and crawlers; the shell prefetches the next page (IdlePrefetch).
  const arrow = (to: number, text: string, name: string, rel: "prev" | "next") =>
    to < 1 || to > pageCount || to === page ? (
      <span className="page-btn opacity-40" aria-hidden="true">
        {text}
      </span>
    ) : (
      <Link to={href(to)} className="page-btn" aria-label={name} rel={rel} preventScrollReset={false}>
        {text}
      </Link>
    );
  return (
    <nav aria-label={label} className="mt-3 flex flex-wrap items-center gap-1">
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
          <Link key={p} to={href(p)} className="page-btn" aria-label={`Page ${p}`}>
            {p}
          </Link>
        ),
      )}
      {arrow(page + 1, "›", "Next page", "next")}
    </nav>
  );
}
