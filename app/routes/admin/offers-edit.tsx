// /admin/offers/:id: every field of one offer, its sponsorship, and retiring it
// (out of search, listings, counts, sitemap and feed; its page answers 410) or
// restoring it. A save made from a stale page answers 409 instead of
// overwriting a colleague's change (core/offers/editor.ts).
import { useLoaderData, useLocation } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { offerUrl } from "#contracts/offers.ts";
import { ConsoleForm } from "#app/ui/admin/ConsoleForm.tsx";
import { dateTime } from "#app/ui/admin/format.ts";
import { consoleAction, refusedAsPage, requireStaff } from "./staff.server";
import { OFFER_FORM_FIELDS, OfferForm, offerBody } from "./offers-form";
import type { Route } from "./+types/offers-edit";
import { consoleMeta } from "./console-meta";

export const meta: Route.MetaFunction = ({ loaderData, ...args }) =>
  consoleMeta(args, loaderData?.offer.name ?? "Offer");

export async function loader(args: Route.LoaderArgs) {
  const { services } = requireStaff(args, "admin");
  const [offer, choices] = await Promise.all([
    refusedAsPage(services.offers.editor.get(args.params.id)),
    services.offers.editor.choices(),
  ]);
  return { offer, choices };
}

export async function action(args: Route.ActionArgs) {
  const id = args.params.id;
  return consoleAction(args, "admin", OFFER_FORM_FIELDS, {
    save: async (values, { services, site, user }) => {
      await services.offers.editor.update({ siteId: site.id, userId: user.id }, id, offerBody(values));
      return "Saved.";
    },
    retire: async (values, { services, site, user }) => {
      await services.offers.editor.retire({ siteId: site.id, userId: user.id }, id, { updatedAt: values.updatedAt });
      return "Retired: the offer left search and listings; its page answers 410.";
    },
    restore: async (values, { services, site, user }) => {
      await services.offers.editor.restore({ siteId: site.id, userId: user.id }, id, { updatedAt: values.updatedAt });
      return "Restored: the offer is listed again.";
    },
  });
}

export default function EditOfferPage() {
  const { offer, choices } = useLoaderData<typeof loader>();
  const created = new URLSearchParams(useLocation().search).has("created");
  const retired = offer.status === "retired";
  return (
    <section>
      <p className="mb-2 text-sm">
        <Link to="/admin/offers" className="link">
          ← Offers
        </Link>
      </p>
      <h1 className="text-2xl font-semibold">{offer.name}</h1>
      <p className="mb-3 text-sm text-slate-600" data-testid="offer-status">
        Status: {offer.status} · {offer.networkName} · payout in USD for ranking:{" "}
        {offer.payoutUsd === null ? "—" : `$${offer.payoutUsd.toFixed(2)}`} · changed {dateTime(offer.updatedAt)} ·{" "}
        <Link to={offerUrl(offer)} className="link">
          public page
        </Link>
      </p>
      {created && (
        <p role="status" className="mb-3 text-sm text-green-800">
          Created.
        </p>
      )}
      {retired ? (
        <div className="card space-y-3">
          <p>This offer is retired: it is out of search and listings, and its page answers 410.</p>
          <ConsoleForm intent="restore" submitLabel="Restore offer" hidden={{ updatedAt: offer.updatedAt }} />
        </div>
      ) : (
        <>
          <OfferForm choices={choices} offer={offer} submitLabel="Save offer" />
          <div className="card mt-4">
            <h2 className="mb-2 text-lg font-semibold">Retire</h2>
            <p className="mb-2 text-sm text-slate-600">
              Takes the offer out of search, listings, the network&apos;s count, the sitemap and the feed; old links
              answer 410 &ldquo;no longer listed&rdquo;. It can be restored.
            </p>
            <ConsoleForm
              intent="retire"
              submitLabel="Retire offer"
              tone="danger"
              hidden={{ updatedAt: offer.updatedAt }}
            />
          </div>
        </>
      )}
    </section>
  );
}
