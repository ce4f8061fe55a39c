// /admin/traffic-sources/:id: edit every field, retire (out of the listing, the
// search and the sitemap; old links answer 410) or restore. A save made from a
// stale page answers 409 instead of overwriting.
import { useLoaderData, useSearchParams } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { useSettledActionData } from "#app/ui/form/Fields.tsx";
import { ConsoleForm } from "#app/ui/admin/ConsoleForm.tsx";
import { dateTime } from "#app/ui/admin/format.ts";
import { STATUS_LABELS } from "./networks-form";
import { TRAFFIC_SOURCE_FORM_FIELDS, TrafficSourceForm, trafficSourceBody } from "./traffic-sources-form";
import { consoleAction, refusedAsPage, requireStaff } from "./staff.server";
import type { Route } from "./+types/traffic-sources-edit";
import { consoleMeta } from "./console-meta";

export const meta: Route.MetaFunction = ({ loaderData, ...args }) =>
  consoleMeta(args, loaderData?.source.name ?? "Traffic source");

export async function loader(args: Route.LoaderArgs) {
  const { services } = requireStaff(args, "admin");
  return { source: await refusedAsPage(services.trafficSourceEditor.get(args.params.id)) };
}

export async function action(args: Route.ActionArgs) {
  const id = args.params.id;
  return consoleAction(args, "admin", TRAFFIC_SOURCE_FORM_FIELDS, {
    save: async (values, { services, site, user }) => {
      await services.trafficSourceEditor.update({ siteId: site.id, userId: user.id }, id, trafficSourceBody(values));
      return "Saved.";
    },
    retire: async (values, { services, site, user }) => {
      const s = await services.trafficSourceEditor.retire({ siteId: site.id, userId: user.id }, id, {
        updatedAt: values.updatedAt,
      });
      return `${s.name} is retired: it left the listing and its page answers “no longer listed”.`;
    },
    restore: async (values, { services, site, user }) => {
      const s = await services.trafficSourceEditor.restore({ siteId: site.id, userId: user.id }, id, {
        updatedAt: values.updatedAt,
      });
      return `${s.name} is listed again.`;
    },
  });
}

export default function EditTrafficSource() {
  const { source: s } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  // Retiring swaps the retire form for the restore form, so its confirmation is shown here.
  const result = useSettledActionData();
  const moved = result?.ok && result.values?.intent !== "save" ? result.message : undefined;
  return (
    <section className="space-y-4">
      <nav className="text-sm">
        <Link to="/admin/traffic-sources" className="link">
          ← All traffic sources
        </Link>
      </nav>
      <div className="flex flex-wrap items-baseline gap-3">
        <h1 className="text-2xl font-semibold">{s.name}</h1>
        <span className="text-sm text-slate-600" data-testid="traffic-source-status">
          {STATUS_LABELS[s.status]}
          {s.retiredAt && ` since ${dateTime(s.retiredAt)}`}
        </span>
        {s.status === "active" && (
          <a href={`/traffic-sources/details/${s.id}`} className="link text-sm" target="_blank" rel="noopener">
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
          Traffic source created.
        </p>
      )}
      <TrafficSourceForm source={s} submitLabel="Save traffic source" />
      <div className="card">
        {s.status === "retired" ? (
          <ConsoleForm
            intent="restore"
            submitLabel="Restore traffic source"
            tone="plain"
            hidden={{ updatedAt: s.updatedAt }}
          >
            <p className="text-sm text-slate-700">
              Retired traffic sources are out of the listing, search and sitemap.
            </p>
          </ConsoleForm>
        ) : (
          <ConsoleForm
            intent="retire"
            submitLabel="Retire traffic source"
            tone="danger"
            hidden={{ updatedAt: s.updatedAt }}
          >
            <p className="text-sm text-slate-700">
              Retiring takes it out of the listing, search and sitemap at once; its page stays and says it is no longer
              listed.
            </p>
          </ConsoleForm>
        )}
      </div>
    </section>
  );
}
