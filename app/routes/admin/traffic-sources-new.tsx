// /admin/traffic-sources/new: a new traffic source, listed at once.
import { redirect } from "react-router";
import { handleForm } from "#app/ui/form/form.server.ts";
import { TRAFFIC_SOURCE_FORM_FIELDS, TrafficSourceForm, trafficSourceBody } from "./traffic-sources-form";
import { requireStaff } from "./staff.server";
import type { Route } from "./+types/traffic-sources-new";
import { consoleMeta } from "./console-meta";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "New traffic source");

export async function loader(args: Route.LoaderArgs) {
  requireStaff(args, "admin");
  return null;
}

export async function action(args: Route.ActionArgs) {
  const { services, site, user } = requireStaff(args, "admin");
  return handleForm(args.request, { fields: new Set([...TRAFFIC_SOURCE_FORM_FIELDS, "intent"]) }, async (values) => {
    const created = await services.trafficSourceEditor.create(
      { siteId: site.id, userId: user.id },
      trafficSourceBody(values),
    );
    return redirect(`/admin/traffic-sources/${created.id}?created=1`);
  });
}

export default function NewTrafficSource() {
  return (
    <section>
      <h1 className="mb-3 text-2xl font-semibold">New traffic source</h1>
      <TrafficSourceForm submitLabel="Create traffic source" />
    </section>
  );
}
