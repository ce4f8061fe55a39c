// Every console list: a TanStack Table over one server page. Sorting and paging
// are links that change the URL (`sort`, `dir`, `page`), so the server pages and
// orders the list, a view can be bookmarked, and it all works without JavaScript.
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef } from "@tanstack/react-table";
import { Form, useLocation } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import type { AdminList, AdminSort } from "#contracts/admin.ts";
import { Pagination } from "#app/ui/Pagination.tsx";

export type { ColumnDef };

/** The current address with some parameters changed (undefined removes one). */
export function withParams(search: string, changes: Record<string, string | number | undefined>) {
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined || value === "") params.delete(key);
    else params.set(key, String(value));
  }
  const query = params.toString();
  return query ? `?${query}` : "?";
}

/**
 * `columns`: column ids are the list's sort names; a column is sortable when its
 * definition says `enableSorting: true` (the server's whitelist must name it too).
 */
export function AdminTable<T>({
  caption,
  testId,
  list,
  columns,
  sort,
  rowId,
  empty = "Nothing here.",
}: {
  caption: string;
  testId: string;
  list: AdminList<T>;
  // TanStack's own column type: each column's value type differs.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<T, any>[];
  sort?: AdminSort;
  rowId: (row: T) => string;
  empty?: string;
}) {
  const { search } = useLocation();
  // The table is rebuilt from the loader's page on every render; nothing here is memoized.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: list.items,
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: rowId,
    manualSorting: true,
    manualPagination: true,
    enableSorting: false,
    rowCount: list.total,
    state: { sorting: sort ? [{ id: sort.sort, desc: sort.dir === "desc" }] : [] },
  });
  const pageCount = Math.max(1, Math.ceil(list.total / list.pageSize));
  return (
    <>
      <p className="mb-2 text-sm text-slate-600" data-testid={`${testId}-total`}>
        {list.total === 1 ? "1 item" : `${list.total.toLocaleString("en-US")} items`}
        {pageCount > 1 && ` · page ${list.page} of ${pageCount}`}
      </p>
      <div className="overflow-x-auto rounded-md border border-slate-200 bg-white">
        <table className="data-table admin-table" data-testid={testId}>
          <caption className="sr-only">{caption}</caption>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const label = flexRender(header.column.columnDef.header, header.getContext());
                  const sortable = header.column.columnDef.enableSorting === true && sort;
                  const active = sort?.sort === header.column.id;
                  if (!sortable)
                    return (
                      <th key={header.id} scope="col">
                        {label}
                      </th>
                    );
                  const dir = active && sort.dir === "asc" ? "desc" : "asc";
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      aria-sort={active ? (sort.dir === "asc" ? "ascending" : "descending") : undefined}
                    >
                      <Link to={withParams(search, { sort: header.column.id, dir, page: undefined })} className="link">
                        {label}
                        {active && <span aria-hidden="true">{sort.dir === "asc" ? " ▲" : " ▼"}</span>}
                      </Link>
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.map((row) => (
              <tr key={row.id} data-row-id={row.id}>
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</td>
                ))}
              </tr>
            ))}
            {list.items.length === 0 && (
              <tr>
                <td colSpan={columns.length} className="text-center text-slate-500">
                  {empty}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <Pagination
        page={list.page}
        pageCount={pageCount}
        href={(page) => withParams(search, { page: page === 1 ? undefined : page })}
        label={`${caption} pages`}
      />
    </>
  );
}

/** Links that filter a list by one parameter (a status, a kind); the current one is marked. */
export function FilterTabs({
  param,
  current,
  options,
  label,
}: {
  param: string;
  current: string | undefined;
  options: readonly { value: string | undefined; label: string }[];
  label: string;
}) {
  const { search } = useLocation();
  return (
    <nav aria-label={label} className="mb-3 flex flex-wrap gap-2 text-sm">
      {options.map((o) => {
        const active = o.value === current;
        return (
          <Link
            key={o.label}
            to={withParams(search, { [param]: o.value, page: undefined })}
            aria-current={active ? "page" : undefined}
            className={`rounded-full border px-3 py-1 ${
              active ? "border-brand-600 bg-brand-600 text-white" : "border-slate-300 bg-white hover:border-brand-500"
            }`}
          >
            {o.label}
          </Link>
        );
      })}
    </nav>
  );
}

/** A filter's links: "all" first, then each value with its label (the value itself without one). */
export function filterOptions(all: string, values: readonly string[], labels?: Readonly<Record<string, string>>) {
  return [{ value: undefined, label: all }, ...values.map((value) => ({ value, label: labels?.[value] ?? value }))];
}

/**
 * A list's search box: a GET form that keeps the list's other filters (`keep`)
 * and starts again from page 1.
 */
export function ListSearch({
  label,
  value,
  keep = {},
  placeholder = "Name or slug",
}: {
  label: string;
  value: string | undefined;
  keep?: Record<string, string | undefined>;
  placeholder?: string;
}) {
  return (
    <Form method="get" className="mb-3 flex gap-2" role="search">
      {Object.entries(keep).map(([name, kept]) => kept && <input key={name} type="hidden" name={name} value={kept} />)}
      <input
        type="search"
        name="search"
        aria-label={label}
        defaultValue={value ?? ""}
        placeholder={placeholder}
        className="input max-w-sm"
        maxLength={100}
      />
      <button type="submit" className="btn-primary">
        Search
      </button>
    </Form>
  );
}
