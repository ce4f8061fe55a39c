// /admin/ads/:id: every field of one house ad, its numbers, and retiring it (it
// stops serving at once; its click address answers 404). A save made from a stale
// page answers 409 instead of overwriting a colleague's change (core/ads/console.ts).
import { useLoaderData, useLocation } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { AD_FORM_FIELDS, AD_STATUS_LABELS, formatCtr } from "#contracts/ads.ts";
import { ConsoleForm } from "#app/ui/admin/ConsoleForm.tsx";
import { dateTime } from "#app/ui/admin/format.ts";
import { consoleAction, refusedAsPage, requireStaff } from "./staff.server";
import { AdForm, adBody } from "./ads.form";
import type { Route } from "./+types/ads.$id";
import { consoleMeta } from "./console-meta";

export const meta: Route.MetaFunction = ({ loaderData, ...args }) =>
  consoleMeta(args, loaderData?.ad.headline ?? "House ad");

export async function loader(args: Route.LoaderArgs) {
  const { services } = requireStaff(args, "admin");
  const [ad, sites] = await Promise.all([
    refusedAsPage(services.ads.console.get(args.params.id)),
    services.ads.console.sites(),
  ]);
  return { ad, sites: sites.map((s) => s.id), today: new Date().toISOString().slice(0, 10) };
}

export async function action(args: Route.ActionArgs) {
  const id = args.params.id;
  return consoleAction(args, "admin", AD_FORM_FIELDS, {
    save: async (values, { services, site, user }) => {
      await services.ads.console.update({ siteId: site.id, userId: user.id }, id, adBody(values));
      return "Saved.";
    },
    retire: async (values, { services, site, user }) => {
      await services.ads.console.retire({ siteId: site.id, userId: user.id }, id, { updatedAt: values.updatedAt });
      return "Retired: the ad no longer serves.";
    },
  });
}

export default function EditAdPage() {
  const { ad, sites, today } = useLoaderData<typeof loader>();
  const created = new URLSearchParams(useLocation().search).has("created");
  return (
    <section>
      <p className="mb-2 text-sm">
        <Link to="/admin/ads" className="link">
          ← House ads
        </Link>
      </p>
      <h1 className="text-2xl font-semibold">{ad.headline}</h1>
      <p className="mb-3 text-sm text-slate-600" data-testid="ad-status">
        {ad.size} · {AD_STATUS_LABELS[ad.status]} · last 30 days: {ad.impressions.toLocaleString("en-US")} impressions,{" "}
        {ad.clicks.toLocaleString("en-US")} clicks, CTR {formatCtr(ad.ctr)} · changed {dateTime(ad.updatedAt)}
      </p>
      {created && (
        <p role="status" className="mb-3 text-sm text-green-800">
          Created.
        </p>
      )}
      {ad.active ? (
        <>
          <AdForm ad={ad} sites={sites} today={today} submitLabel="Save ad" />
          <div className="card mt-4">
            <h2 className="mb-2 text-lg font-semibold">Retire</h2>
            <p className="mb-2 text-sm text-slate-600">
              The ad stops serving at once and its link answers &ldquo;no longer running&rdquo;; its numbers stay in the
              report.
            </p>
            <ConsoleForm intent="retire" submitLabel="Retire ad" tone="danger" hidden={{ updatedAt: ad.updatedAt }} />
          </div>
        </>
      ) : (
        <p className="card">This ad is retired: it no longer serves. Its numbers stay in the CTR report.</p>
      )}
    </section>
  );
}
