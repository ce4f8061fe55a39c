// /admin/networks: every network of the directory, whatever its status,
// searched by name or slug, filtered by status, sorted and paged on the server.
import { useLoaderData } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { createColumnHelper } from "@tanstack/react-table";
import { CATALOGUE_STATUSES, networkFilter, type AdminNetwork } from "#contracts/catalogue.ts";
import { AdminTable, FilterTabs, ListSearch, filterOptions } from "#app/ui/admin/AdminTable.tsx";
import { dateTime } from "#app/ui/admin/format.ts";
import { STATUS_LABELS } from "./networks-form";
import { queryOf, requireStaff } from "./staff.server";
import type { Route } from "./+types/networks";
import { consoleMeta } from "./console-meta";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "Networks");

export async function loader(args: Route.LoaderArgs) {
  const { services } = requireStaff(args, "admin");
  const filter = queryOf(args.request, networkFilter);
  return { list: await services.networkEditor.list(filter), filter };
}

const column = createColumnHelper<AdminNetwork>();
const columns = [
  column.accessor("name", {
    id: "name",
    header: "Name",
    enableSorting: true,
    cell: ({ row, getValue }) => (
      <>
        <Link to={`/admin/networks/${row.original.id}`} className="link font-medium">
          {getValue()}
        </Link>
        <span className="block text-xs text-slate-500">{row.original.slug}</span>
      </>
    ),
  }),
  column.accessor("status", {
    id: "status",
    header: "Status",
    enableSorting: true,
    cell: (c) => STATUS_LABELS[c.getValue()],
  }),
  column.accessor("featured", { header: "Featured", cell: (c) => (c.getValue() ? "Yes" : "—") }),
  column.accessor("offerCount", { id: "offerCount", header: "Offers", enableSorting: true }),
  column.accessor("reviewCount", { id: "reviewCount", header: "Reviews", enableSorting: true }),
  column.accessor("updatedAt", {
    id: "updatedAt",
    header: "Changed",
    enableSorting: true,
    cell: (c) => dateTime(c.getValue()),
  }),
];

export default function ConsoleNetworks() {
  const { list, filter } = useLoaderData<typeof loader>();
  return (
    <section>
      <div className="mb-3 flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold">Networks</h1>
        <Link to="/admin/networks/new" className="btn-primary ml-auto">
          New network
        </Link>
      </div>
      <ListSearch label="Search networks" value={filter.search} keep={{ status: filter.status }} />
      <FilterTabs
        label="Status"
        param="status"
        current={filter.status}
        options={filterOptions("Any status", CATALOGUE_STATUSES, STATUS_LABELS)}
      />
      <AdminTable
        caption="Networks"
        testId="networks-table"
        list={list}
        columns={columns}
        sort={filter}
        rowId={(n) => String(n.id)}
        empty="No networks match."
      />
    </section>
  );
}
