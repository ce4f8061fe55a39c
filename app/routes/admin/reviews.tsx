// /admin/reviews: the review queues. Reported reviews are still shown and wait
// for a decision; held ones wait because a rule stopped them (the rule says why);
// hidden ones can be restored. Hiding or restoring updates the network's
// average, count and trust score in the same transaction (core/reviews/moderation.ts).
import { useLoaderData } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { createColumnHelper } from "@tanstack/react-table";
import { moderationFilter, type ModeratedReview } from "#contracts/reviews.ts";
import { AdminTable, FilterTabs } from "#app/ui/admin/AdminTable.tsx";
import { ActionNotice, ConsoleForm } from "#app/ui/admin/ConsoleForm.tsx";
import { dateTime } from "#app/ui/admin/format.ts";
import { TextField } from "#app/ui/form/Fields.tsx";
import { Stars } from "#app/ui/Stars.tsx";
import { consoleAction, queryOf, requireStaff } from "./staff.server";
import type { Route } from "./+types/reviews";
import { consoleMeta } from "./console-meta";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "Reviews");

export async function loader(args: Route.LoaderArgs) {
  const { services } = requireStaff(args, "moderator");
  const url = new URL(args.request.url);
  // The reported queue is the one that opens.
  if (!url.searchParams.has("status")) url.searchParams.set("status", "reported");
  const filter = queryOf(new Request(url), moderationFilter);
  return { list: await services.reviewModeration.list(filter), filter };
}

export async function action(args: Route.ActionArgs) {
  return consoleAction(args, "moderator", ["reason"], {
    hide: async (values, { services, site, user }) => {
      await services.reviewModeration.hide({
        reviewId: String(values.id ?? ""),
        actorId: user.id,
        siteId: site.id,
        input: { reason: values.reason },
      });
      return "Hidden. The network's rating no longer counts it.";
    },
    restore: async (values, { services, site, user }) => {
      await services.reviewModeration.restore({ reviewId: String(values.id ?? ""), actorId: user.id, siteId: site.id });
      return "Restored. The review is published again.";
    },
    dismiss: async (values, { services, site, user }) => {
      await services.reviewModeration.dismissReports({
        reviewId: String(values.id ?? ""),
        actorId: user.id,
        siteId: site.id,
      });
      return "Kept. Its reports left the queue.";
    },
  });
}

const QUEUES = [
  { value: "reported", label: "Reported" },
  { value: "held", label: "Held by a rule" },
  { value: "hidden", label: "Hidden" },
] as const;

const column = createColumnHelper<ModeratedReview>();
const columns = [
  column.accessor("networkName", {
    id: "networkName",
    header: "Network",
    enableSorting: true,
    cell: ({ row, getValue }) => (
      <Link to={`/network/${row.original.networkId}`} className="link">
        {getValue()}
      </Link>
    ),
  }),
  column.accessor("rating", {
    id: "rating",
    header: "Rating",
    enableSorting: true,
    cell: (c) => <Stars rating={c.getValue()} />,
  }),
  column.accessor("comment", {
    header: "Review",
    cell: ({ row, getValue }) => (
      <div className="max-w-md">
        <p className="whitespace-pre-line break-words">{getValue()}</p>
        <p className="mt-1 text-xs text-slate-500">
          {row.original.authorName} &lt;{row.original.authorEmail}&gt; · {dateTime(row.original.createdAt)}
        </p>
      </div>
    ),
  }),
  column.accessor("reportCount", {
    id: "reportCount",
    header: "Why it is here",
    enableSorting: true,
    cell: ({ row }) => {
      const r = row.original;
      return (
        <div className="max-w-xs text-sm">
          {r.holdReason && <p>Held: {r.holdReason}</p>}
          {r.hiddenReason && <p>Hidden: {r.hiddenReason}</p>}
          {r.reportCount > 0 && (
            <>
              <p className="font-medium">{r.reportCount === 1 ? "1 report" : `${r.reportCount} reports`}</p>
              <ul className="list-disc pl-4">
                {r.reports.map((report, i) => (
                  <li key={i}>
                    {report.reason}
                    {report.comment && `: ${report.comment}`}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      );
    },
  }),
  column.display({
    id: "decision",
    header: "Decision",
    cell: ({ row }) => {
      const r = row.original;
      return (
        <div className="min-w-56 space-y-3">
          {r.status !== "hidden" && (
            <ConsoleForm intent="hide" recordId={r.id} submitLabel="Hide" tone="danger">
              <TextField name="reason" label="Reason" required maxLength={500} />
            </ConsoleForm>
          )}
          {r.status !== "published" && (
            <ConsoleForm
              intent="restore"
              recordId={r.id}
              submitLabel={r.status === "held" ? "Publish" : "Restore"}
              tone="plain"
            />
          )}
          {r.status === "published" && (
            <ConsoleForm intent="dismiss" recordId={r.id} submitLabel="Keep it (dismiss reports)" tone="plain" />
          )}
        </div>
      );
    },
  }),
];

export default function ReviewQueuesPage() {
  const { list, filter } = useLoaderData<typeof loader>();
  return (
    <section>
      <h1 className="mb-3 text-2xl font-semibold">Reviews</h1>
      <ActionNotice />
      <FilterTabs label="Queue" param="status" current={filter.status} options={QUEUES} />
      <AdminTable
        caption="Reviews in the queue"
        testId="reviews-table"
        list={list}
        columns={columns}
        sort={filter}
        rowId={(r) => String(r.id)}
        empty="The queue is empty."
      />
    </section>
  );
}
