// /admin/offers/new: an admin lists a new offer; once saved it opens in the editor.
import { redirect, useLoaderData } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { consoleAction, requireStaff } from "./staff.server";
import { OFFER_FORM_FIELDS, OfferForm, offerBody } from "./offers-form";
import type { Route } from "./+types/offers-new";
import { consoleMeta } from "./console-meta";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "New offer");

export async function loader(args: Route.LoaderArgs) {
  const { services } = requireStaff(args, "admin");
  return { choices: await services.offers.editor.choices() };
}

export async function action(args: Route.ActionArgs) {
  return consoleAction(args, "admin", OFFER_FORM_FIELDS, {
    save: async (values, { services, site, user }) => {
      const offer = await services.offers.editor.create({ siteId: site.id, userId: user.id }, offerBody(values));
      throw redirect(`/admin/offers/${offer.id}?created=1`);
    },
  });
}

export default function NewOfferPage() {
  const { choices } = useLoaderData<typeof loader>();
  return (
    <section>
      <p className="mb-2 text-sm">
        <Link to="/admin/offers" className="link">
          ← Offers
        </Link>
      </p>
      <h1 className="mb-3 text-2xl font-semibold">New offer</h1>
      <OfferForm choices={choices} submitLabel="Create offer" />
    </section>
  );
}
