// /admin/traffic-sources: every traffic source, whatever its status, searched
// by name or slug, filtered by status, sorted and paged on the server.
import { useLoaderData } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { createColumnHelper } from "@tanstack/react-table";
import { CATALOGUE_STATUSES, trafficSourceFilter, type AdminTrafficSource } from "#contracts/catalogue.ts";
import { AdminTable, FilterTabs, ListSearch, filterOptions } from "#app/ui/admin/AdminTable.tsx";
import { dateTime } from "#app/ui/admin/format.ts";
import { STATUS_LABELS } from "./networks-form";
import { queryOf, requireStaff } from "./staff.server";
import type { Route } from "./+types/traffic-sources";
import { consoleMeta } from "./console-meta";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "Traffic sources");

export async function loader(args: Route.LoaderArgs) {
  const { services } = requireStaff(args, "admin");
  const filter = queryOf(args.request, trafficSourceFilter);
  return { list: await services.trafficSourceEditor.list(filter), filter };
}

const column = createColumnHelper<AdminTrafficSource>();
const columns = [
  column.accessor("name", {
    id: "name",
    header: "Name",
    enableSorting: true,
    cell: ({ row, getValue }) => (
      <>
        <Link to={`/admin/traffic-sources/${row.original.id}`} className="link font-medium">
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
  column.accessor("adFormats", { header: "Ad formats", cell: (c) => c.getValue().join(", ") || "—" }),
  column.accessor("updatedAt", {
    id: "updatedAt",
    header: "Changed",
    enableSorting: true,
    cell: (c) => dateTime(c.getValue()),
  }),
];

export default function ConsoleTrafficSources() {
  const { list, filter } = useLoaderData<typeof loader>();
  return (
    <section>
      <div className="mb-3 flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold">Traffic sources</h1>
        <Link to="/admin/traffic-sources/new" className="btn-primary ml-auto">
          New traffic source
        </Link>
      </div>
      <ListSearch label="Search traffic sources" value={filter.search} keep={{ status: filter.status }} />
      <FilterTabs
        label="Status"
        param="status"
        current={filter.status}
        options={filterOptions("Any status", CATALOGUE_STATUSES, STATUS_LABELS)}
      />
      <AdminTable
        caption="Traffic sources"
        testId="traffic-sources-table"
        list={list}
        columns={columns}
        sort={filter}
        rowId={(s) => String(s.id)}
        empty="No traffic sources match."
      />
    </section>
  );
}
