// /admin/verticals: every vertical with its active offers, searched by name or
// slug, sorted and paged on the server; each opens to rename or merge it.
import { useLoaderData } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { createColumnHelper } from "@tanstack/react-table";
import { verticalFilter, type AdminVertical } from "#contracts/catalogue.ts";
import { AdminTable, ListSearch } from "#app/ui/admin/AdminTable.tsx";
import { dateTime } from "#app/ui/admin/format.ts";
import { queryOf, requireStaff } from "./staff.server";
import type { Route } from "./+types/verticals";
import { consoleMeta } from "./console-meta";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "Verticals");

export async function loader(args: Route.LoaderArgs) {
  const { services } = requireStaff(args, "admin");
  const filter = queryOf(args.request, verticalFilter);
  return { list: await services.verticalEditor.list(filter), filter };
}

const column = createColumnHelper<AdminVertical>();
const columns = [
  column.accessor("name", {
    id: "name",
    header: "Name",
    enableSorting: true,
    cell: ({ row, getValue }) => (
      <>
        <Link to={`/admin/verticals/${row.original.id}`} className="link font-medium">
          {getValue()}
        </Link>
        <span className="block text-xs text-slate-500">{row.original.slug}</span>
      </>
    ),
  }),
  column.accessor("top", { header: "Top", cell: (c) => (c.getValue() ? "Yes" : "—") }),
  column.accessor("offerCount", { id: "offerCount", header: "Active offers", enableSorting: true }),
  column.accessor("updatedAt", {
    id: "updatedAt",
    header: "Changed",
    enableSorting: true,
    cell: (c) => dateTime(c.getValue()),
  }),
];

export default function ConsoleVerticals() {
  const { list, filter } = useLoaderData<typeof loader>();
  return (
    <section>
      <h1 className="mb-3 text-2xl font-semibold">Verticals</h1>
      <ListSearch label="Search verticals" value={filter.search} />
      <AdminTable
        caption="Verticals"
        testId="verticals-table"
        list={list}
        columns={columns}
        sort={filter}
        rowId={(v) => String(v.id)}
        empty="No verticals match."
      />
    </section>
  );
}
