// /admin/submissions: networks submitted through /add-your-network, newest
// first, filtered by status; each opens its page with the details and decisions.
import { useLoaderData } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { createColumnHelper } from "@tanstack/react-table";
import { submissionFilter, SUBMISSION_STATUSES, type SubmissionItem } from "#contracts/submissions.ts";
import { AdminTable, FilterTabs, filterOptions } from "#app/ui/admin/AdminTable.tsx";
import { dateTime } from "#app/ui/admin/format.ts";
import { queryOf, requireStaff } from "./staff.server";
import type { Route } from "./+types/submissions";
import { consoleMeta } from "./console-meta";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "Network submissions");

export async function loader(args: Route.LoaderArgs) {
  const { services, site } = requireStaff(args, "moderator");
  const filter = queryOf(args.request, submissionFilter);
  return { list: await services.submissions.list(site.id, filter), filter };
}

const STATUS_LABELS: Record<SubmissionItem["status"], string> = {
  new: "New",
  approved: "Approved",
  rejected: "Rejected",
  duplicate: "Duplicate",
};

const column = createColumnHelper<SubmissionItem>();
const columns = [
  column.display({
    id: "logo",
    header: () => <span className="sr-only">Logo</span>,
    cell: ({ row }) =>
      row.original.logoUrl ? (
        <img src={row.original.logoUrl} alt="" width={48} height={48} className="h-12 w-12 object-contain" />
      ) : null,
  }),
  column.accessor("name", {
    id: "name",
    header: "Network",
    enableSorting: true,
    cell: ({ row, getValue }) => (
      <>
        <Link to={`/admin/submissions/${row.original.id}`} className="link font-medium">
          {getValue()}
        </Link>
        {row.original.details.website && (
          <span className="block text-xs text-slate-500">{row.original.details.website}</span>
        )}
      </>
    ),
  }),
  column.accessor("email", { header: "Submitted by" }),
  column.accessor("status", {
    id: "status",
    header: "Status",
    enableSorting: true,
    cell: ({ row, getValue }) => (
      <>
        {STATUS_LABELS[getValue()]}
        {row.original.networkName && <span className="block text-xs text-slate-500">{row.original.networkName}</span>}
      </>
    ),
  }),
  column.accessor("createdAt", {
    id: "createdAt",
    header: "Submitted",
    enableSorting: true,
    cell: (c) => dateTime(c.getValue()),
  }),
];

export default function SubmissionsPage() {
  const { list, filter } = useLoaderData<typeof loader>();
  return (
    <section>
      <h1 className="mb-3 text-2xl font-semibold">Network submissions</h1>
      <FilterTabs
        label="Status"
        param="status"
        current={filter.status}
        options={filterOptions("All", SUBMISSION_STATUSES, STATUS_LABELS)}
      />
      <AdminTable
        caption="Network submissions"
        testId="submissions-table"
        list={list}
        columns={columns}
        sort={filter}
        rowId={(s) => String(s.id)}
        empty="No submissions here."
      />
    </section>
  );
}
