// /admin/ads: every house ad with its last 30 days' impressions, clicks and CTR,
// filtered by status and slot size, sorted and paged on the server.
import { useLoaderData } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { createColumnHelper } from "@tanstack/react-table";
import { AD_SIZES, AD_STATUSES, AD_STATUS_LABELS, adFilter, formatCtr, type AdminHouseAd } from "#contracts/ads.ts";
import { AdminTable, FilterTabs, filterOptions } from "#app/ui/admin/AdminTable.tsx";
import { queryOf, requireStaff } from "./staff.server";
import type { Route } from "./+types/ads";
import { consoleMeta } from "./console-meta";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "House ads");

export async function loader(args: Route.LoaderArgs) {
  const { services } = requireStaff(args, "admin");
  const filter = queryOf(args.request, adFilter);
  return { list: await services.ads.console.list(filter), filter };
}

const column = createColumnHelper<AdminHouseAd>();
const count = (n: number) => n.toLocaleString("en-US");

const columns = [
  column.accessor("id", { id: "id", header: "#", enableSorting: true }),
  column.accessor("headline", {
    id: "headline",
    header: "Ad",
    enableSorting: true,
    cell: ({ row, getValue }) => (
      <div className="max-w-xs">
        <Link to={`/admin/ads/${row.original.id}`} className="link font-medium">
          {getValue()}
        </Link>
        <p className="truncate text-xs text-slate-500">
          {row.original.imageUrl ? "Image" : "Text"} → {row.original.targetUrl}
        </p>
        {row.original.keywords.length > 0 && (
          <p className="text-xs text-slate-500">Keywords: {row.original.keywords.join(", ")}</p>
        )}
      </div>
    ),
  }),
  column.accessor("size", { id: "size", header: "Size", enableSorting: true }),
  column.accessor("siteId", { header: "Site", cell: (c) => c.getValue() ?? "All sites" }),
  column.accessor("status", { header: "Status", cell: (c) => AD_STATUS_LABELS[c.getValue()] }),
  column.accessor("startsOn", {
    id: "startsOn",
    header: "Dates",
    enableSorting: true,
    cell: ({ row }) => `${row.original.startsOn} – ${row.original.endsOn ?? "no end"}`,
  }),
  column.accessor("weight", { id: "weight", header: "Weight", enableSorting: true }),
  column.accessor("impressions", {
    id: "impressions",
    header: "Impressions",
    enableSorting: true,
    cell: (c) => count(c.getValue()),
  }),
  column.accessor("clicks", { id: "clicks", header: "Clicks", enableSorting: true, cell: (c) => count(c.getValue()) }),
  column.accessor("ctr", { id: "ctr", header: "CTR", enableSorting: true, cell: (c) => formatCtr(c.getValue()) }),
];

export default function AdsPage() {
  const { list, filter } = useLoaderData<typeof loader>();
  return (
    <section>
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-semibold">House ads</h1>
        <p className="flex gap-3 text-sm">
          <Link to="/admin/ads/report" className="link">
            CTR report
          </Link>
          <Link to="/admin/ads/new" className="btn-primary">
            New house ad
          </Link>
        </p>
      </div>
      <p className="mb-3 text-sm text-slate-600">Impressions, clicks and CTR of the last 30 days (UTC).</p>
      <FilterTabs
        label="Status"
        param="status"
        current={filter.status}
        options={filterOptions("Any status", AD_STATUSES, AD_STATUS_LABELS)}
      />
      <FilterTabs
        label="Slot size"
        param="size"
        current={filter.size}
        options={filterOptions("Every size", AD_SIZES)}
      />
      <AdminTable
        caption="House ads"
        testId="ads-table"
        list={list}
        columns={columns}
        sort={filter}
        rowId={(ad) => String(ad.id)}
        empty="No house ads here."
      />
    </section>
  );
}
