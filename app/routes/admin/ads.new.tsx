// /admin/ads/new: an admin creates a house ad; once saved it opens in the editor.
import { redirect, useLoaderData } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { AD_FORM_FIELDS } from "#contracts/ads.ts";
import { consoleAction, requireStaff } from "./staff.server";
import { AdForm, adBody } from "./ads.form";
import type { Route } from "./+types/ads.new";
import { consoleMeta } from "./console-meta";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "New house ad");

export async function loader(args: Route.LoaderArgs) {
  const { services } = requireStaff(args, "admin");
  const sites = await services.ads.console.sites();
  return { sites: sites.map((s) => s.id), today: new Date().toISOString().slice(0, 10) };
}

export async function action(args: Route.ActionArgs) {
  return consoleAction(args, "admin", AD_FORM_FIELDS, {
    save: async (values, { services, site, user }) => {
      const ad = await services.ads.console.create({ siteId: site.id, userId: user.id }, adBody(values));
      throw redirect(`/admin/ads/${ad.id}?created=1`);
    },
  });
}

export default function NewAdPage() {
  const { sites, today } = useLoaderData<typeof loader>();
  return (
    <section>
      <p className="mb-2 text-sm">
        <Link to="/admin/ads" className="link">
          ← House ads
        </Link>
      </p>
      <h1 className="mb-3 text-2xl font-semibold">New house ad</h1>
      <AdForm sites={sites} today={today} submitLabel="Create ad" />
    </section>
  );
}
