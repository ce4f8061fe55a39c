// /admin/ads/report: impressions, clicks and CTR per house ad over a range of
// UTC days (default: the last 30), with the totals.
import { Form, useLoaderData } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { createColumnHelper } from "@tanstack/react-table";
import { AD_STATUS_LABELS, adReportRange, formatCtr, type AdReportRow } from "#contracts/ads.ts";
import { AdminTable } from "#app/ui/admin/AdminTable.tsx";
import { queryOf, requireStaff } from "./staff.server";
import type { Route } from "./+types/ads.report";
import { consoleMeta } from "./console-meta";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "House-ad CTR report");

export async function loader(args: Route.LoaderArgs) {
  const { services } = requireStaff(args, "admin");
  return { report: await services.ads.report(queryOf(args.request, adReportRange)) };
}

const column = createColumnHelper<AdReportRow>();
const count = (n: number) => n.toLocaleString("en-US");

const columns = [
  column.accessor("headline", {
    header: "Ad",
    cell: ({ row, getValue }) => (
      <Link to={`/admin/ads/${row.original.id}`} className="link">
        {getValue()}
      </Link>
    ),
  }),
  column.accessor("size", { header: "Size" }),
  column.accessor("siteId", { header: "Site", cell: (c) => c.getValue() ?? "All sites" }),
  column.accessor("status", { header: "Status", cell: (c) => AD_STATUS_LABELS[c.getValue()] }),
  column.accessor("impressions", { header: "Impressions", cell: (c) => count(c.getValue()) }),
  column.accessor("clicks", { header: "Clicks", cell: (c) => count(c.getValue()) }),
  column.accessor("ctr", { header: "CTR", cell: (c) => formatCtr(c.getValue()) }),
];

export default function AdReportPage() {
  const { report } = useLoaderData<typeof loader>();
  const { totals } = report;
  return (
    <section>
      <p className="mb-2 text-sm">
        <Link to="/admin/ads" className="link">
          ← House ads
        </Link>
      </p>
      <h1 className="mb-3 text-2xl font-semibold">House-ad CTR report</h1>
      <Form method="get" className="mb-4 flex flex-wrap items-end gap-3">
        <label className="text-sm font-medium text-slate-700">
          From (UTC day)
          <input type="date" name="from" defaultValue={report.from} className="input mt-1" />
        </label>
        <label className="text-sm font-medium text-slate-700">
          To (UTC day, included)
          <input type="date" name="to" defaultValue={report.to} className="input mt-1" />
        </label>
        <button type="submit" className="btn-primary">
          Show
        </button>
      </Form>
      <p className="mb-3 text-sm" data-testid="ad-report-totals">
        {report.from} to {report.to}: {count(totals.impressions)} impressions, {count(totals.clicks)} clicks, CTR{" "}
        {formatCtr(totals.ctr)}
      </p>
      <AdminTable
        caption="CTR per house ad"
        testId="ad-report"
        list={{ items: report.items, total: report.items.length, page: 1, pageSize: Math.max(1, report.items.length) }}
        columns={columns}
        rowId={(row) => String(row.id)}
        empty="No ad served or was counted in these days."
      />
    </section>
  );
}
