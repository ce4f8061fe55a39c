// /admin/submissions/:id: one submitted network, all it said and its logo, and
// the moderator's decisions while it is new: approve (creates or updates the
// listing), reject with a reason (mailed to the submitter), or mark as a duplicate.
import { useLoaderData } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { NETWORK_FIELDS } from "#contracts/leads.ts";
import { ActionNotice, ConsoleForm } from "#app/ui/admin/ConsoleForm.tsx";
import { dateTime } from "#app/ui/admin/format.ts";
import { TextArea, TextField } from "#app/ui/form/Fields.tsx";
import { consoleAction, refusedAsPage, requireStaff } from "./staff.server";
import type { Route } from "./+types/submission";
import { consoleMeta } from "./console-meta";

export const meta: Route.MetaFunction = ({ loaderData, ...args }) =>
  consoleMeta(args, loaderData?.submission.name ?? "Submission");

export async function loader(args: Route.LoaderArgs) {
  const { services, site } = requireStaff(args, "moderator");
  return { submission: await refusedAsPage(services.submissions.get(site.id, args.params.id)) };
}

export async function action(args: Route.ActionArgs) {
  const id = args.params.id;
  return consoleAction(args, "moderator", ["reason", "networkId"], {
    approve: async (_, { services, site, user }) => {
      const { submission } = await services.submissions.approve({ siteId: site.id, userId: user.id }, id);
      return `Approved: ${submission.networkName ?? submission.name} is listed.`;
    },
    reject: async (values, { services, site, user }) => {
      await services.submissions.reject({ siteId: site.id, userId: user.id }, id, { reason: values.reason });
      return "Rejected; the submitter is told why by email.";
    },
    duplicate: async (values, { services, site, user }) => {
      const { submission } = await services.submissions.markDuplicate({ siteId: site.id, userId: user.id }, id, {
        networkId: values.networkId,
      });
      return `Marked as a duplicate of ${submission.networkName ?? "that network"}.`;
    },
  });
}

/** The submitted fields in the form's order, as the form labelled them. */
const SHOWN = [
  "website",
  "country",
  "contactName",
  "phone",
  "messenger",
  "description",
  "offerCount",
  "verticals",
  "trackingPlatform",
  "paymentFrequency",
  "paymentMethods",
  "minimumPayment",
  "commissionTypes",
] as const;

const shown = (value: unknown) =>
  Array.isArray(value) ? value.join(", ") : value === undefined || value === "" ? "—" : String(value);

export default function SubmissionPage() {
  const { submission: s } = useLoaderData<typeof loader>();
  return (
    <section>
      <p className="mb-2 text-sm">
        <Link to="/admin/submissions" className="link">
          ← Network submissions
        </Link>
      </p>
      <ActionNotice />
      <div className="flex items-start gap-4">
        {s.logoUrl && (
          <img src={s.logoUrl} alt={`${s.name} logo`} className="h-20 w-20 rounded border bg-white object-contain" />
        )}
        <div>
          <h1 className="text-2xl font-semibold">{s.name}</h1>
          <p className="text-sm text-slate-600" data-testid="submission-status">
            Status: {s.status} · submitted {dateTime(s.createdAt)} by {s.email}
          </p>
          {s.decidedBy && (
            <p className="text-sm text-slate-600">
              Decided {dateTime(s.decidedAt)} by {s.decidedBy.email}
              {s.reason && <> — reason: {s.reason}</>}
            </p>
          )}
          {s.networkId && (
            <p className="text-sm">
              <Link to={`/network/${s.networkId}`} className="link">
                {s.networkName ?? "The listing"}
              </Link>
            </p>
          )}
        </div>
      </div>
      <dl className="card mt-4 grid grid-cols-[12rem_1fr] gap-x-4 gap-y-2 text-sm">
        {SHOWN.map((field) => (
          <div key={field} className="contents">
            <dt className="font-medium text-slate-600">{NETWORK_FIELDS[field]}</dt>
            <dd className="whitespace-pre-line break-words">{shown(s.details[field])}</dd>
          </div>
        ))}
      </dl>
      {s.status === "new" && (
        <div className="mt-6 grid gap-6 md:grid-cols-3">
          <div className="card">
            <h2 className="mb-2 font-semibold">Approve</h2>
            <p className="mb-3 text-sm text-slate-600">
              Lists the network with its logo, or updates the listing with the same website.
            </p>
            <ConsoleForm intent="approve" submitLabel="Approve and list" />
          </div>
          <div className="card">
            <h2 className="mb-2 font-semibold">Reject</h2>
            <ConsoleForm intent="reject" submitLabel="Reject" tone="danger">
              <TextArea name="reason" label="Reason (mailed to the submitter)" rows={3} required />
            </ConsoleForm>
          </div>
          <div className="card">
            <h2 className="mb-2 font-semibold">Duplicate</h2>
            <ConsoleForm intent="duplicate" submitLabel="Mark as duplicate" tone="plain">
              <TextField
                name="networkId"
                label="Listed network's id"
                hint="The number in its address: /network/{id}/…"
                inputMode="numeric"
                required
              />
            </ConsoleForm>
          </div>
        </div>
      )}
    </section>
  );
}
