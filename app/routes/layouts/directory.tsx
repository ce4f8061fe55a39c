// What /networks and /traffic-sources share: the layout's search box feeds the
// loader, the whole list (shuffled, featured first) is loaded once per search,
// and pages are cut from it here, so paging does not reshuffle and no entry
// shows on two pages.
import type { ReactNode } from "react";
import { useLocation, useSearchParams, type ShouldRevalidateFunctionArgs } from "react-router";
import { NETWORKS_PAGE_SIZE } from "#contracts/networks.ts";
import { Pagination } from "#app/ui/Pagination.tsx";

/** The directory search the URL asks for, bounded like every typed query. */
export const directorySearch = (request: Request) =>
  (new URL(request.url).searchParams.get("search") ?? "").slice(0, 200);

/** Paging within one search reuses the loaded list. */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  const sameSearch = (currentUrl.searchParams.get("search") ?? "") === (nextUrl.searchParams.get("search") ?? "");
  if (!formMethod && currentUrl.pathname === nextUrl.pathname && sameSearch) return false;
  return defaultShouldRevalidate;
}

/** Any `page` value lands on a real page: past the end is the last, anything else not a whole number ≥ 1 the first. */
const pageFrom = (params: URLSearchParams, pageCount: number) => {
  const n = Number(params.get("page"));
  return Number.isInteger(n) && n >= 1 ? Math.min(n, pageCount) : 1;
};

export function DirectoryListing<T>({
  id,
  title,
  rows,
  search,
  nothingFound,
  pagesLabel,
  table,
}: {
  id: string;
  title: string;
  rows: T[];
  search: string;
  nothingFound: string;
  pagesLabel: string;
  table: (shown: T[]) => ReactNode;
}) {
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const pageCount = Math.max(1, Math.ceil(rows.length / NETWORKS_PAGE_SIZE));
  const page = pageFrom(params, pageCount);
  const href = (p: number) => {
    const next = new URLSearchParams(params);
    next.set("search", search);
    next.set("page", String(p));
    return `${pathname}?${next.toString()}`;
  };
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="mb-2 text-base font-semibold">
        {title} <span className="text-sm font-normal text-slate-600">({rows.length})</span>
      </h2>
      {rows.length === 0 ? (
        <p className="card text-sm" role="status">
          {nothingFound}
        </p>
      ) : (
        <>
          {table(rows.slice((page - 1) * NETWORKS_PAGE_SIZE, page * NETWORKS_PAGE_SIZE))}
          <Pagination page={page} pageCount={pageCount} href={href} label={pagesLabel} />
        </>
      )}
    </section>
  );
}
