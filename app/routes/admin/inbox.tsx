// /admin/inbox: advertise requests and contact messages in one list, newest
// first, filtered by kind and status. Each row is worked in place: status, a
// note, and who handles it; a save made from a stale page answers 409
// (core/inbox/inbox.ts) instead of overwriting a colleague's change.
import { useLoaderData } from "react-router";
import { createColumnHelper } from "@tanstack/react-table";
import {
  inboxFilter,
  INBOX_KINDS,
  INBOX_NOTE_MAX,
  INBOX_STATUSES,
  type InboxItem,
  type InboxStatus,
} from "#contracts/inbox.ts";
import { ADVERTISE_FIELDS } from "#contracts/leads.ts";
import { AdminTable, FilterTabs, filterOptions } from "#app/ui/admin/AdminTable.tsx";
import { ConsoleForm } from "#app/ui/admin/ConsoleForm.tsx";
import { dateTime } from "#app/ui/admin/format.ts";
import { TextArea } from "#app/ui/form/Fields.tsx";
import { consoleAction, queryOf, requireStaff } from "./staff.server";
import type { Route } from "./+types/inbox";
import { consoleMeta } from "./console-meta";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "Inbox");

export async function loader(args: Route.LoaderArgs) {
  const { services, site, user } = requireStaff(args, "moderator");
  const filter = queryOf(args.request, inboxFilter);
  return { list: await services.inbox.list(site.id, filter), filter, me: { id: user.id, email: user.email } };
}

export async function action(args: Route.ActionArgs) {
  return consoleAction(args, "moderator", ["status", "note", "handledBy", "updatedAt"], {
    save: async (values, { services, site, user }) => {
      // The row's id is "<kind>-<id>" (one list of two tables).
      const [kind, id] = String(values.id ?? "").split("-");
      await services.inbox.update({ siteId: site.id, userId: user.id }, kind, id, {
        updatedAt: values.updatedAt,
        status: values.status,
        note: values.note,
        handledBy: values.handledBy === "" ? null : Number(values.handledBy),
      });
      return "Saved.";
    },
  });
}

/** What an advertise request said besides its company and message, labelled as its form labelled it. */
function RequestDetails({ details }: { details: Record<string, unknown> }) {
  const shown = Object.entries(ADVERTISE_FIELDS).filter(
    ([key]) => !["name", "email", "company", "message"].includes(key) && details[key],
  );
  if (shown.length === 0) return null;
  return (
    <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 text-xs text-slate-600">
      {shown.map(([key, label]) => (
        <div key={key} className="contents">
          <dt>{label}</dt>
          <dd className="break-words">
            {Array.isArray(details[key]) ? (details[key] as unknown[]).join(", ") : String(details[key])}
          </dd>
        </div>
      ))}
    </dl>
  );
}

const STATUS_LABELS: Record<InboxStatus, string> = { new: "New", in_progress: "In progress", done: "Done" };
const KIND_LABELS: Record<InboxItem["kind"], string> = { advertise: "Advertise", contact: "Contact" };

const column = createColumnHelper<InboxItem>();

function columnsFor(me: { id: number; email: string }) {
  return [
    column.accessor("createdAt", {
      id: "createdAt",
      header: "Received",
      enableSorting: true,
      cell: (c) => dateTime(c.getValue()),
    }),
    column.accessor("name", {
      id: "name",
      header: "From",
      enableSorting: true,
      cell: ({ row, getValue }) => (
        <>
          {getValue()}
          <a href={`mailto:${row.original.email}`} className="link block text-xs">
            {row.original.email}
          </a>
          <span className="text-xs text-slate-500">{KIND_LABELS[row.original.kind]}</span>
        </>
      ),
    }),
    column.accessor("message", {
      header: "Message",
      cell: ({ row, getValue }) => (
        <div className="max-w-md">
          {row.original.subject && <p className="font-medium">{row.original.subject}</p>}
          <p className="whitespace-pre-line break-words text-sm">{getValue()}</p>
          <RequestDetails details={row.original.details} />
        </div>
      ),
    }),
    column.accessor("status", {
      id: "status",
      header: "Handling",
      enableSorting: true,
      cell: ({ row }) => {
        const m = row.original;
        const handlers = [me, ...(m.handledBy && m.handledBy.id !== me.id ? [m.handledBy] : [])];
        return (
          <div className="min-w-56">
            <ConsoleForm
              intent="save"
              recordId={`${m.kind}-${m.id}`}
              submitLabel="Save"
              hidden={{ updatedAt: m.updatedAt }}
              defaults={{ note: m.note }}
            >
              <label className="block text-sm font-medium text-slate-700">
                Status
                <select name="status" defaultValue={m.status} className="input mt-1">
                  {INBOX_STATUSES.map((s) => (
                    <option key={s} value={s}>
                      {STATUS_LABELS[s]}
                    </option>
                  ))}
                </select>
              </label>
              <label className="block text-sm font-medium text-slate-700">
                Handled by
                <select name="handledBy" defaultValue={m.handledBy?.id ?? ""} className="input mt-1">
                  <option value="">Nobody yet</option>
                  {handlers.map((h) => (
                    <option key={h.id} value={h.id}>
                      {h.id === me.id ? `Me (${h.email})` : h.email}
                    </option>
                  ))}
                </select>
              </label>
              <TextArea name="note" label="Note" rows={2} maxLength={INBOX_NOTE_MAX} />
            </ConsoleForm>
          </div>
        );
      },
    }),
  ];
}

export default function InboxPage() {
  const { list, filter, me } = useLoaderData<typeof loader>();
  return (
    <section>
      <h1 className="mb-3 text-2xl font-semibold">Inbox</h1>
      <FilterTabs
        label="Kind"
        param="kind"
        current={filter.kind}
        options={filterOptions("All messages", INBOX_KINDS, KIND_LABELS)}
      />
      <FilterTabs
        label="Status"
        param="status"
        current={filter.status}
        options={filterOptions("Any status", INBOX_STATUSES, STATUS_LABELS)}
      />
      <AdminTable
        caption="Inbox"
        testId="inbox-table"
        list={list}
        columns={columnsFor(me)}
        sort={filter}
        rowId={(m) => `${m.kind}-${m.id}`}
        empty="No messages here."
      />
    </section>
  );
}
