// What /networks and /traffic-sources share: the layout's search box feeds the
// loader, which shuffles the list (featured first) by the seed its page links
// carry (`order`) and sends one page of it. Paging never reshuffles, so no entry
// shows on two pages or on none, and the page carries 20 rows, not the whole list.
import type { ReactElement, ReactNode } from "react";
import { useLocation, useSearchParams } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { DIRECTORY_ORDER, NETWORKS_PAGE_SIZE } from "#contracts/networks.ts";
import { DataTable, HiddenHeading } from "#app/ui/DataTable.tsx";
import { FeaturedBadge } from "#app/ui/FeaturedBadge.tsx";
import { NetworkLogo } from "#app/ui/NetworkLogo.tsx";
import { Pagination } from "#app/ui/Pagination.tsx";
import { rootSeo } from "#app/lib/seo.ts";
import { pageSuffix, searchPageMeta } from "#app/lib/search-seo.ts";
import { normalizeOfferQuery } from "#contracts/text.ts";

/** The directory search the URL asks for, bounded like every typed query. */
export const directorySearch = (request: Request) =>
  (new URL(request.url).searchParams.get("search") ?? "").slice(0, 200);

/** The shuffle the page links name, or a fresh one for a new visit. */
export function directoryOrder(request: Request): string {
  const given = new URL(request.url).searchParams.get("order");
  if (given && DIRECTORY_ORDER.test(given)) return given;
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** One page of a directory's shuffled list: any `page` lands on a real page (past the end: the last; not a whole number ≥ 1: the first). */
export function directoryPage<T>(request: Request, all: readonly T[]) {
  const pageCount = Math.max(1, Math.ceil(all.length / NETWORKS_PAGE_SIZE));
  const n = Number(new URL(request.url).searchParams.get("page"));
  const page = Number.isInteger(n) && n >= 1 ? Math.min(n, pageCount) : 1;
  return {
    rows: all.slice((page - 1) * NETWORKS_PAGE_SIZE, page * NETWORKS_PAGE_SIZE),
    total: all.length,
    page,
    pageCount,
  };
}

/**
 * The meta export of a directory page (docs/decisions/0025): canonical at the search's words
 * (trimmed and lower-cased, as the list reads them) and the page; the shuffle's seed and
 * unknown parameters left out; pages after the first are variants.
 */
export function directoryMeta(page: { path: string; kind: string; title: string; description: string }) {
  return ({
    loaderData,
    matches,
  }: {
    loaderData: { search: string; page: number; total: number } | undefined;
    matches: Parameters<typeof rootSeo>[0];
  }) => {
    const search = normalizeOfferQuery(loaderData?.search);
    const n = loaderData?.page ?? 1;
    const address = {
      path: page.path,
      params: [
        ["search", search],
        ["page", n > 1 ? String(n) : undefined],
      ] satisfies [string, string | undefined][],
      indexable: n === 1,
    };
    return searchPageMeta(rootSeo(matches), address, {
      title: `${search ? `${page.kind} matching “${search}”` : page.title}${pageSuffix(n)}`,
      description: search
        ? `${loaderData?.total ?? 0} ${page.kind.toLowerCase()} matching “${search}”. ${page.description}`
        : page.description,
    });
  };
}

/** What a directory page's loader hands its listing. */
export type DirectoryPage<T> = ReturnType<typeof directoryPage<T>> & { search: string; order: string };

/** What every entry of a directory shows first: its logo, its name and whether it is featured. */
type Entry = { id: number; name: string; logoUrl: string | null; featured: boolean };

/** One directory (networks, traffic sources): its names, and the columns of its own after logo and name. */
export type Directory<T extends Entry> = {
  /** The path it lives at, without the slash: the ids of its heading and table. */
  slug: string;
  /** The heading, also the table's caption. */
  title: string;
  /** Its entries in a sentence: "No networks match …", "Networks pages". */
  plural: string;
  /** The name column's heading. */
  entry: string;
  href: (entry: T) => string;
  /** The data attributes of an entry's row. */
  rowData: (entry: T) => Record<`data-${string}`, string | number | true | undefined>;
  columns: (string | ReactElement)[];
  /** The cells of `columns`. */
  cells: (entry: T) => ReactNode;
};

function DirectoryTable<T extends Entry>({ directory: d, entries }: { directory: Directory<T>; entries: T[] }) {
  return (
    <DataTable
      caption={d.title}
      testId={`${d.slug}-table`}
      columns={[<HiddenHeading key="logo" label="Logo" />, d.entry, ...d.columns]}
    >
      {entries.map((e) => (
        <tr key={e.id} {...d.rowData(e)} className={e.featured ? "bg-brand-50/60" : undefined}>
          <td className="w-12">
            <NetworkLogo name={e.name} logoUrl={e.logoUrl} />
          </td>
          <td>
            <Link to={d.href(e)} className="link font-medium">
              {e.name}
            </Link>
            {e.featured && (
              <span className="ml-2">
                <FeaturedBadge />
              </span>
            )}
          </td>
          {d.cells(e)}
        </tr>
      ))}
    </DataTable>
  );
}

/** A directory page's list: its heading with the count, then a page of the table and the pages, or that nothing matched. */
export function DirectoryListing<T extends Entry>({
  directory,
  listing: { rows, total, page, pageCount, search, order },
}: {
  directory: Directory<T>;
  listing: DirectoryPage<T>;
}) {
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const href = (p: number) => {
    const next = new URLSearchParams(params);
    next.set("search", search);
    next.set("page", String(p));
    next.set("order", order);
    return `${pathname}?${next.toString()}`;
  };
  const id = `${directory.slug}-heading`;
  const { plural } = directory;
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="mb-2 text-base font-semibold">
        {directory.title} <span className="text-sm font-normal text-slate-600">({total})</span>
      </h2>
      {total === 0 ? (
        <p className="card text-sm" role="status">
          {`No ${plural} match “${search}”.`}
        </p>
      ) : (
        <>
          <DirectoryTable directory={directory} entries={rows} />
          <Pagination
            page={page}
            pageCount={pageCount}
            href={href}
            label={`${plural[0].toUpperCase()}${plural.slice(1)} pages`}
          />
        </>
      )}
    </section>
  );
}
