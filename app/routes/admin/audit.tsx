// /admin/audit: every console action, newest first (admins only), filtered by
// action, subject type and actor; each row shows the values before and after,
// field by field, with the changed ones marked.
import { Form, useLoaderData } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { createColumnHelper } from "@tanstack/react-table";
import { auditFilter, type AuditEntry } from "#contracts/admin.ts";
import { AdminTable } from "#app/ui/admin/AdminTable.tsx";
import { dateTime } from "#app/ui/admin/format.ts";
import { queryOf, requireStaff } from "./staff.server";
import type { Route } from "./+types/audit";
import { consoleMeta } from "./console-meta";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "Audit log");

export async function loader(args: Route.LoaderArgs) {
  const { services, site } = requireStaff(args, "admin");
  const filter = queryOf(args.request, auditFilter);
  return { list: await services.audit.list(site.id, filter), filter };
}

/** A value as a person reads it: text as is, lists joined, anything else as JSON. */
function readable(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "string") return value || '""';
  if (Array.isArray(value) && value.every((v) => typeof v === "string"))
    return value.length ? value.join(", ") : "none";
  return JSON.stringify(value);
}

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/** Before and after, one field per row; a field whose value changed is marked. */
function Change({ before, after }: { before: unknown; after: unknown }) {
  const b = asRecord(before);
  const a = asRecord(after);
  if ((before != null && !b) || (after != null && !a)) {
    return (
      <p className="text-sm">
        {readable(before)} → {readable(after)}
      </p>
    );
  }
  const fields = [...new Set([...Object.keys(b ?? {}), ...Object.keys(a ?? {})])];
  if (fields.length === 0) return <span className="text-sm text-slate-500">No values recorded</span>;
  return (
    <table className="text-sm" data-testid="audit-change">
      <thead className="sr-only">
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Before</th>
          <th scope="col">After</th>
        </tr>
      </thead>
      <tbody>
        {fields.map((field) => {
          const from = readable(b?.[field]);
          const to = readable(a?.[field]);
          const changed = from !== to;
          return (
            <tr key={field} data-field={field} data-changed={changed || undefined}>
              <th scope="row" className="pr-2 text-left align-top font-medium text-slate-600">
                {field}
              </th>
              <td className="break-all pr-2 align-top" data-side="before">
                {from}
              </td>
              <td className={`break-all align-top ${changed ? "font-semibold" : ""}`} data-side="after">
                <span aria-hidden="true">→ </span>
                {to}
                {changed && <span className="sr-only"> (changed)</span>}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

const column = createColumnHelper<AuditEntry>();
const columns = [
  column.accessor("createdAt", { header: "When", cell: (c) => dateTime(c.getValue()) }),
  column.accessor("actorEmail", {
    header: "Who",
    cell: ({ row, getValue }) =>
      row.original.actorId === null ? (
        "—"
      ) : (
        <Link to={`?actorId=${row.original.actorId}`} className="link" title="Only this person's actions">
          {getValue() ?? `#${row.original.actorId}`}
        </Link>
      ),
  }),
  column.accessor("action", {
    header: "Action",
    cell: ({ getValue }) => (
      <Link to={`?action=${encodeURIComponent(getValue())}`} className="link font-mono text-sm">
        {getValue()}
      </Link>
    ),
  }),
  column.accessor("subjectType", {
    header: "Record",
    cell: ({ row, getValue }) => (
      <span className="text-sm">
        {getValue()}
        {row.original.subjectId !== null && ` #${row.original.subjectId}`}
      </span>
    ),
  }),
  column.display({
    id: "change",
    header: "Before → after",
    cell: ({ row }) => <Change before={row.original.before} after={row.original.after} />,
  }),
];

export default function AuditPage() {
  const { list, filter } = useLoaderData<typeof loader>();
  const filtered = Boolean(filter.action || filter.subjectType || filter.actorId);
  return (
    <section>
      <h1 className="mb-3 text-2xl font-semibold">Audit log</h1>
      <Form method="get" className="mb-3 flex flex-wrap items-end gap-3" aria-label="Filter the audit log">
        <label className="text-sm">
          <span className="block font-medium text-slate-700">Action</span>
          <input
            name="action"
            defaultValue={filter.action ?? ""}
            maxLength={100}
            placeholder="user.roles"
            className="input mt-1"
          />
        </label>
        <label className="text-sm">
          <span className="block font-medium text-slate-700">Record type</span>
          <input
            name="subjectType"
            defaultValue={filter.subjectType ?? ""}
            maxLength={100}
            placeholder="user"
            className="input mt-1"
          />
        </label>
        <label className="text-sm">
          <span className="block font-medium text-slate-700">Actor (account id)</span>
          <input
            name="actorId"
            inputMode="numeric"
            pattern="[0-9]*"
            defaultValue={filter.actorId ?? ""}
            className="input mt-1 w-32"
          />
        </label>
        <button type="submit" className="btn-primary">
          Filter
        </button>
        {filtered && (
          <Link to="/admin/audit" className="link text-sm">
            Show everything
          </Link>
        )}
      </Form>
      <AdminTable
        caption="Audit log"
        testId="audit-table"
        list={list}
        columns={columns}
        rowId={(e) => String(e.id)}
        empty="Nothing recorded here."
      />
    </section>
  );
}
