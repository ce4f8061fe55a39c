// Offer page (docs/product.md §2 /offer/{id}/{slug}): every field, the network card with
// its rating and Join button, the same product at other networks with payouts
// side by side (best first), and similar offers. Non-canonical addresses
// (missing or wrong slug, an old-site id, /offer/legacy/{id}, a bare slug)
// answer 301 to /offer/{id}/{slug}.
import { data, redirect } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { formatPayout } from "#contracts/money.ts";
import { networkPath } from "#contracts/networks.ts";
import { normalizeOfferQuery, offerSearchToUrl, offerUrl, type OfferDetail } from "#contracts/offers.ts";
import { requestContext, watchViewer } from "#app/context.ts";
import { Stars } from "#app/ui/Stars.tsx";
import { NoLongerListed } from "#app/ui/NoLongerListed.tsx";
import { WatchStar } from "#app/ui/WatchStar.tsx";
import { OfferJoinButton, listText, payoutText, typeText } from "./OfferFacts";
import { SponsoredLabel } from "./OffersTable";
import { dateText, geosText } from "./format";
import { PayoutHistory } from "./PayoutHistory";
import { SameOfferElsewhere, SameOfferTable } from "./SameOffer";
import { Verified } from "./Verified";
import type { Route } from "./+types/offer";
import {
  absolute,
  breadcrumbs,
  describe,
  jsonLd,
  pageMeta,
  rootSeo,
  unlistedPageMeta,
  type SeoContext,
} from "#app/lib/seo.ts";

export async function loader({ params, context }: Route.LoaderArgs) {
  const { services, site } = context.get(requestContext);
  const offers = services.offers;
  const { id, slug } = params;
  if (!id) throw redirect("/", 302);
  // Old links reach here with the old site's id (see routes/legacy/offer.tsx).
  const offer = await offers.lookup(
    site.id,
    id === "legacy" ? { legacyId: slug ?? "" } : { segment: id, legacyFallback: true },
  );
  if (!offer) throw data("Offer not found", { status: 404 });
  // Retired (by the operator, or by its source after missed syncs): 410 Gone, pointing to its
  // network (if still listed) or to the search, and listing the same product at other networks.
  if (offer.status === "retired") {
    const { sameOffer } = await offers.related(offer);
    const elsewhere = sameOffer.filter((o) => !o.current);
    return data({ retired: { ...retiredPage(offer), networkName: offer.network.name, elsewhere } }, { status: 410 });
  }
  if (id !== String(offer.id) || slug !== offer.slug) throw redirect(offerUrl(offer), 301);
  const related = await offers.related(offer);
  const watch = await services.watchlist.stateFor(watchViewer(context.get(requestContext)), { offerIds: [offer.id] });
  // The render time, so "Verified 3 hours ago" and the chart read the same on the server and in the browser.
  return { offer, ...related, watch, now: new Date().toISOString(), retired: null };
}

function retiredPage(offer: OfferDetail) {
  const to =
    offer.network.offerCount > 0
      ? { href: `/network/${offer.network.id}/${offer.network.slug}`, label: `See ${offer.network.name}'s offers` }
      : {
          href: `/?${offerSearchToUrl({ query: normalizeOfferQuery(offer.name), page: 1, selectedTab: "topOffers" })}`,
          label: "Search similar offers",
        };
  return { name: offer.name, to };
}

export const meta: Route.MetaFunction = ({ loaderData: d, matches, location }) => {
  if (d?.retired)
    return unlistedPageMeta(
      { matches, location },
      {
        title: `${d.retired.name} is no longer listed`,
        description: `${d.retired.name} is no longer listed: this offer was removed from the directory.`,
      },
    );
  if (!d) return [{ title: "Offer | OfferAtlas" }];
  const seo = rootSeo(matches);
  const { offer } = d;
  const vertical = verticalSearch(offer);
  return pageMeta(seo, {
    title: `${offer.name} – ${offer.network.name}`,
    description: offer.description,
    path: offerUrl(offer),
    type: "product",
    image: offer.network.logoUrl,
    extra: [
      ...(seo ? [jsonLd(offerStructuredData(offer, seo))] : []),
      ...breadcrumbs(seo, [
        ...(vertical ? [{ name: `${vertical.name} offers`, path: vertical.path }] : []),
        { name: offer.name, path: offerUrl(offer) },
      ]),
    ],
  });
};

/** The offer's first vertical as a search: the middle step of its breadcrumb. */
function verticalSearch(offer: OfferDetail) {
  const first = offer.categories[0];
  if (!first) return undefined;
  // The vertical's canonical address (docs/decisions/0025), so the breadcrumb names the page search engines index.
  return { name: first.name, path: `/?${new URLSearchParams({ categories: String(first.id) })}` };
}

/**
 * schema.org Product with its Offer: what the network pays per action, in its currency, sold
 * (run) through that network; a paused offer is out of stock for affiliates.
 */
function offerStructuredData(offer: OfferDetail, seo: SeoContext) {
  const url = absolute(seo, offerUrl(offer));
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    name: offer.name,
    description: describe(offer.description || offer.name),
    url,
    ...(offer.network.logoUrl ? { image: absolute(seo, offer.network.logoUrl) } : {}),
    category: offer.categories.map((c) => c.name).join(", ") || undefined,
    offers: {
      "@type": "Offer",
      url,
      ...(offer.payoutAmount === null
        ? {}
        : { price: offer.payoutAmount.toFixed(2), priceCurrency: offer.currency.code }),
      availability: offer.status === "active" ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
      seller: {
        "@type": "Organization",
        name: offer.network.name,
        url: absolute(seo, networkPath(offer.network)),
      },
    },
  };
}

export default function OfferPage({ loaderData }: Route.ComponentProps) {
  if (loaderData.retired) {
    const { name, to, networkName, elsewhere } = loaderData.retired;
    return (
      <>
        <NoLongerListed name={name} kind="offer" to={to} />
        <SameOfferElsewhere name={name} networkName={networkName} rows={elsewhere} />
      </>
    );
  }
  const { offer, sameOffer, similarOffers, now, watch } = loaderData;
  const vertical = verticalSearch(offer);
  const facts: [string, React.ReactNode][] = [
    ["Payout", <strong key="p">{payoutText(offer)}</strong>],
    ["Payout type", typeText(offer)],
    ["Geos", listText(offer.countries.map((c) => c.name))],
    ["Verticals", listText(offer.categories.map((c) => c.name))],
    ["Mobile", offer.mobile ? "Yes" : "No"],
    ["Pay per call", offer.ppc ? "Yes" : "No"],
    ["Allowed traffic", listText(offer.allowedTraffic)],
    ["Restricted traffic", listText(offer.restrictedTraffic, "None listed")],
    ["Landing domain", offer.landingDomain ?? "—"],
    ["Added", dateText(offer.createdAt)],
    ["Updated", dateText(offer.updatedAt)],
  ];
  return (
    <article className="flex flex-col gap-4" aria-labelledby="offer-title">
      <header className="card">
        <p className="text-xs uppercase tracking-wide text-slate-500">
          <Link to="/" className="link">
            Offers
          </Link>{" "}
          ›{" "}
          {vertical ? (
            <Link to={vertical.path} className="link">
              {vertical.name}
            </Link>
          ) : (
            "Offer"
          )}
        </p>
        <div className="mt-1 flex items-start gap-2">
          {/* The badge beside the heading, not in it: the heading is the offer's name alone. */}
          <h1 id="offer-title" className="text-2xl font-semibold">
            {offer.name}
          </h1>
          {offer.sponsored && <SponsoredLabel />}
          <WatchStar kind="offer" id={offer.id} name={offer.name} state={watch} />
        </div>
        {offer.status !== "active" && (
          <p className="mt-2 rounded bg-slate-100 px-2 py-1 text-sm text-slate-700" role="note">
            This offer is {offer.status} at {offer.network.name}; see the same offer at other networks below.
          </p>
        )}
        <p className="mt-2 text-slate-700">{offer.description}</p>
        <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
          {facts.map(([k, v]) => (
            <div key={k} className="flex gap-2 border-b border-slate-100 py-1">
              <dt className="w-36 shrink-0 font-medium text-slate-600">{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
        <Verified verification={offer.verification} now={now} />
        {offer.previewUrl && (
          <p className="mt-3 text-sm">
            <a href={offer.previewUrl} target="_blank" rel="nofollow noopener noreferrer" className="link">
              Preview the landing page
            </a>
          </p>
        )}
      </header>

      <PayoutHistory points={offer.payoutHistory} now={now} />

      <section className="card flex flex-wrap items-center justify-between gap-3" aria-labelledby="network-card-title">
        <div>
          <h2 id="network-card-title" className="text-lg font-semibold">
            <Link to={`/network/${offer.network.id}/${offer.network.slug}`} className="link">
              {offer.network.name}
            </Link>
          </h2>
          <p className="text-sm text-slate-600">
            <Stars rating={offer.network.avgRating} />{" "}
            <span className="ml-1">
              {offer.network.avgRating.toFixed(1)} / 5 · {offer.network.reviewCount} reviews ·{" "}
              {offer.network.offerCount} offers
            </span>
          </p>
        </div>
        <OfferJoinButton network={offer.network} />
      </section>

      <section className="card" aria-labelledby="same-offer-title">
        <h2 id="same-offer-title" className="mb-2 text-lg font-semibold">
          Same offer at other networks
        </h2>
        {sameOffer.length <= 1 ? (
          <p className="text-sm text-slate-600">No other network lists this offer yet.</p>
        ) : (
          <SameOfferTable offer={offer} rows={sameOffer} />
        )}
      </section>

      {similarOffers.length > 0 && (
        <section aria-labelledby="similar-title">
          <h2 id="similar-title" className="mb-2 text-lg font-semibold">
            Similar offers
          </h2>
          <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
            {similarOffers.map((o) => (
              <li key={o.id} className={`card p-3 ${o.sponsored ? "bg-amber-50" : ""}`}>
                <Link to={offerUrl(o)} className="link font-medium">
                  {o.name}
                </Link>
                {o.sponsored && <SponsoredLabel />}
                <p className="mt-1 text-sm text-slate-600">{o.networkName}</p>
                <p className="mt-1 text-sm">
                  <strong>{formatPayout(o)}</strong> · {typeText(o)} · {geosText(o.countries, 3)}
                </p>
              </li>
            ))}
          </ul>
        </section>
      )}
    </article>
  );
}
