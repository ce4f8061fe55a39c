// /admin/networks/new: a new network listing, listed on this site unless unticked.
import { redirect, useLoaderData } from "react-router";
import { handleForm } from "#app/ui/form/form.server.ts";
import { NETWORK_FORM_FIELDS, NetworkForm, networkBody, withFormFieldNames } from "./networks-form";
import { requireStaff } from "./staff.server";
import type { Route } from "./+types/networks-new";
import { consoleMeta } from "./console-meta";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "New network");

export async function loader(args: Route.LoaderArgs) {
  const { site } = requireStaff(args, "admin");
  return { siteId: site.id, siteName: site.name };
}

export async function action(args: Route.ActionArgs) {
  const { services, site, user } = requireStaff(args, "admin");
  return handleForm(args.request, { fields: new Set([...NETWORK_FORM_FIELDS, "intent"]) }, async (values) => {
    const created = await withFormFieldNames(() =>
      services.networkEditor.create({ siteId: site.id, userId: user.id }, networkBody(values, site.id)),
    );
    return redirect(`/admin/networks/${created.id}?created=1`);
  });
}

export default function NewNetwork() {
  const { siteId, siteName } = useLoaderData<typeof loader>();
  return (
    <section>
      <h1 className="mb-3 text-2xl font-semibold">New network</h1>
      <NetworkForm siteId={siteId} siteName={siteName} submitLabel="Create network" />
    </section>
  );
}
