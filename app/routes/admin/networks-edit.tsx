// /admin/networks/:id: edit every field of a network and its listing on this
// site, retire it (it leaves every public list; old links answer 410) or
// restore it. A save made from a stale page answers 409 instead of overwriting.
import { useLoaderData, useSearchParams } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { useSettledActionData } from "#app/ui/form/Fields.tsx";
import { networkPath } from "#contracts/networks.ts";
import { ConsoleForm } from "#app/ui/admin/ConsoleForm.tsx";
import { dateTime } from "#app/ui/admin/format.ts";
import { NETWORK_FORM_FIELDS, NetworkForm, STATUS_LABELS, networkBody, withFormFieldNames } from "./networks-form";
import { consoleAction, refusedAsPage, requireStaff } from "./staff.server";
import type { Route } from "./+types/networks-edit";
import { consoleMeta } from "./console-meta";

export const meta: Route.MetaFunction = ({ loaderData, ...args }) =>
  consoleMeta(args, loaderData?.network.name ?? "Network");

export async function loader(args: Route.LoaderArgs) {
  const { services, site } = requireStaff(args, "admin");
  const network = await refusedAsPage(services.networkEditor.get(args.params.id));
  return { network, siteId: site.id, siteName: site.name };
}

export async function action(args: Route.ActionArgs) {
  const id = args.params.id;
  return consoleAction(args, "admin", NETWORK_FORM_FIELDS, {
    save: async (values, { services, site, user }) => {
      const saved = await services.networkEditor.get(id);
      await withFormFieldNames(() =>
        services.networkEditor.update({ siteId: site.id, userId: user.id }, id, networkBody(values, site.id, saved)),
      );
      return "Saved.";
    },
    retire: async (values, { services, site, user }) => {
      const n = await services.networkEditor.retire({ siteId: site.id, userId: user.id }, id, {
        updatedAt: values.updatedAt,
      });
      return `${n.name} is retired: it left the listings and its page answers “no longer listed”.`;
    },
    restore: async (values, { services, site, user }) => {
      const n = await services.networkEditor.restore({ siteId: site.id, userId: user.id }, id, {
        updatedAt: values.updatedAt,
      });
      return `${n.name} is listed again.`;
    },
  });
}

export default function EditNetwork() {
  const { network: n, siteId, siteName } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  // Retiring swaps the retire form for the restore form, so its confirmation is shown here.
  const result = useSettledActionData();
  const moved = result?.ok && result.values?.intent !== "save" ? result.message : undefined;
  return (
    <section className="space-y-4">
      <nav className="text-sm">
        <Link to="/admin/networks" className="link">
          ← All networks
        </Link>
      </nav>
      <div className="flex flex-wrap items-baseline gap-3">
        <h1 className="text-2xl font-semibold">{n.name}</h1>
        <span className="text-sm text-slate-600" data-testid="network-status">
          {STATUS_LABELS[n.status]}
          {n.retiredAt && ` since ${dateTime(n.retiredAt)}`}
        </span>
        {n.status === "active" && (
          <a href={networkPath(n)} className="link text-sm" target="_blank" rel="noopener">
            Public page
          </a>
        )}
      </div>
      {moved && (
        <p role="status" className="text-sm text-green-800" data-testid="status-result">
          {moved}
        </p>
      )}
      {params.get("created") && (
        <p role="status" className="text-sm text-green-800">
          Network created.
        </p>
      )}
      <NetworkForm network={n} siteId={siteId} siteName={siteName} submitLabel="Save network" />
      <div className="card">
        {n.status === "retired" ? (
          <ConsoleForm intent="restore" submitLabel="Restore network" tone="plain" hidden={{ updatedAt: n.updatedAt }}>
            <p className="text-sm text-slate-700">Retired networks are out of every listing, search and sitemap.</p>
          </ConsoleForm>
        ) : (
          <ConsoleForm intent="retire" submitLabel="Retire network" tone="danger" hidden={{ updatedAt: n.updatedAt }}>
            <p className="text-sm text-slate-700">
              Retiring takes the network and its offers out of every listing, search and sitemap at once (restoring
              brings the same offers back); its page stays and says it is no longer listed.
            </p>
          </ConsoleForm>
        )}
      </div>
    </section>
  );
}
