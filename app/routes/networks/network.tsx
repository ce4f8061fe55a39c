// Network page /network/{id}/{slug}: details, the site's listing, the network's
// offers, reviews with their distribution, and the review form. A wrong or
// missing slug answers 301 to the canonical address.
import { data, redirect, useNavigation, useSearchParams } from "react-router";
import { ANTIBOT_FIELD } from "#contracts/antibot.ts";
import { networkPath } from "#contracts/networks.ts";
import { offerSearchFromUrl } from "#contracts/offers.ts";
import { requestContext } from "#app/context.ts";
import { loginPath, pagePathOf, personalUser, requireUserOrRedirect } from "#app/lib/guard.server.ts";
import { breadcrumbs, jsonLd, pageMeta, rootSeo, unlistedPageMeta } from "#app/lib/seo.ts";
import { isWebUrl } from "#app/lib/web-url.ts";
import type { FormResult } from "#app/ui/form/form.ts";
import { handleForm, type FormSpec } from "#app/ui/form/form.server.ts";
import { FeaturedBadge } from "#app/ui/FeaturedBadge.tsx";
import { JoinButton } from "#app/ui/JoinButton.tsx";
import { NetworkLogo } from "#app/ui/NetworkLogo.tsx";
import { NoLongerListed } from "#app/ui/NoLongerListed.tsx";
import { Pagination } from "#app/ui/Pagination.tsx";
import { Stars } from "#app/ui/Stars.tsx";
import { WatchStar } from "#app/ui/WatchStar.tsx";
import { OffersTable } from "#app/routes/offers/OffersTable.tsx";
import { RatingSummary } from "./RatingSummary";
import { ReviewForm } from "./ReviewForm";
import { ReviewList } from "./ReviewList";
import { REPORT_INTENT } from "./ReportReview";
import type { Route } from "./+types/network";
import { formatNumber } from "#contracts/numbers.ts";

const positiveInt = (v: string | null) => {
  const n = Number(v);
  return Number.isInteger(n) && n >= 1 && n <= 10_000 ? n : 1;
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { services, site } = context.get(requestContext);
  // Its review form shows the user's own review: this page is rendered per user.
  const user = personalUser(context.get(requestContext));
  if (!params.id) throw redirect("/networks", 301);
  const network = await services.networks.byId(site.id, params.id);
  if (!network) {
    // An old link to a retired network explains itself (410) instead of a bare 404.
    const retired = await services.networks.retired({ id: params.id });
    if (retired) return data({ retired }, { status: 410 });
    throw data("Network not found", { status: 404 });
  }
  const url = new URL(request.url);
  if (params.slug !== network.slug) throw redirect(networkPath(network) + url.search, 301);

  const [offers, reviews, mine] = await Promise.all([
    // The offers search's own forgiving URL reader bounds the page, as on the search pages.
    services.offers.search({
      ...offerSearchFromUrl(new URLSearchParams({ page: url.searchParams.get("page") ?? "" })),
      networks: [network.id],
    }),
    services.reviews.list(network.id, positiveInt(url.searchParams.get("reviewsPage"))),
    user ? services.reviews.mine(network.id, user.id) : null,
  ]);
  // The network's star and its offers' stars, in one query (none signed out).
  const watch = await services.watchlist.stateFor(user, {
    networkIds: [network.id],
    offerIds: offers.offers.map((o) => o.id),
  });
  return {
    watch,
    network,
    siteName: site.name,
    offers: {
      items: offers.offers,
      page: offers.page,
      pageCount: Math.max(1, Math.ceil(offers.total / offers.pageSize)),
      total: offers.total,
    },
    reviews,
    mine,
    signedIn: Boolean(user),
    loginHref: loginPath(`${pagePathOf(request)}#write-review`),
  };
}

/** What the author is told: published, updated, or held back by a moderation rule (and why). */
function reviewSavedMessage(saved: { created: boolean; status: string; heldBecause?: string }): string {
  if (saved.status === "held") {
    return `Thank you! Your review will appear once a moderator has checked it. ${saved.heldBecause ?? ""}`.trim();
  }
  return saved.created ? "Thank you! Your review has been published." : "Your review has been updated.";
}

// A refused review shows its stars and comment again; an accepted one is rebuilt from the saved review.
const REVIEW_FORM: FormSpec = { fields: new Set(["rating", "comment"]) };
// A report names its review; what its reader typed may be shown again.
const REPORT_FORM: FormSpec = { fields: new Set(["intent", "reviewId", "reason", "comment"]) };

/** A report posts its intent; the review form posts none. */
const isReport = async (request: Request) => (await request.clone().formData()).get("intent") === REPORT_INTENT;

/** The answer meant for the review form (a report's answer belongs to its review's report form). */
const reviewResult = (answer: unknown) => {
  const result = answer as FormResult | undefined;
  return result?.values?.intent === REPORT_INTENT ? undefined : result;
};

export async function action({ request, params, context }: Route.ActionArgs) {
  const { services, site, user, clientIp } = context.get(requestContext);
  const signedIn = requireUserOrRedirect(request, user);
  if (await isReport(request))
    return handleForm(request, REPORT_FORM, async (values) => {
      const reviewId = typeof values.reviewId === "string" ? values.reviewId : "";
      const { message } = await services.reviewModeration.report({
        networkId: params.id ?? "",
        reviewId,
        userId: signedIn.id,
        input: { reason: values.reason, comment: values.comment },
      });
      return { ok: true, message, values: { intent: REPORT_INTENT, reviewId } } satisfies FormResult;
    });
  return handleForm(request, REVIEW_FORM, async (values) => {
    const text = (name: string) => (typeof values[name] === "string" ? values[name] : undefined);
    const saved = await services.reviews.submit({
      networkId: params.id ?? "",
      userId: signedIn.id,
      siteId: site.id,
      ip: clientIp,
      input: { rating: text("rating"), comment: text("comment"), [ANTIBOT_FIELD]: text(ANTIBOT_FIELD) ?? "" },
    });
    return { ok: true, message: reviewSavedMessage(saved) } satisfies FormResult;
  });
}

export const meta: Route.MetaFunction = ({ loaderData, matches, location }) => {
  if (!loaderData) return [{ title: "Network not found | OfferAtlas" }];
  if ("retired" in loaderData) {
    const { name } = loaderData.retired;
    return unlistedPageMeta(
      { matches, location },
      {
        title: `${name} is no longer listed`,
        description: `${name} is no longer listed: this network was removed from the directory.`,
      },
    );
  }
  const { network: n, reviews } = loaderData;
  const organization: Record<string, unknown> = {
    "@context": "https://schema.org",
    "@type": "Organization",
    name: n.name,
    description: n.description,
    ...(n.website ? { url: n.website } : {}),
    ...(n.logoUrl ? { logo: n.logoUrl } : {}),
  };
  // Search engines show stars only with at least one rating.
  if (n.reviewCount > 0) {
    organization.aggregateRating = {
      "@type": "AggregateRating",
      ratingValue: n.avgRating,
      reviewCount: n.reviewCount,
      bestRating: 5,
      worstRating: 1,
    };
    organization.review = reviews.reviews.slice(0, 5).map((r) => ({
      "@type": "Review",
      author: { "@type": "Person", name: r.author },
      datePublished: r.createdAt.slice(0, 10),
      reviewBody: r.comment,
      reviewRating: { "@type": "Rating", ratingValue: r.rating, bestRating: 5, worstRating: 1 },
    }));
  }
  const seo = rootSeo(matches);
  const path = `/network/${n.id}/${n.slug}`;
  return pageMeta(seo, {
    title: `${n.name} reviews, rating and offers`,
    image: n.logoUrl,
    description: `${n.name}: ${n.reviewCount} reviews, rated ${n.avgRating.toFixed(1)} of 5. ${n.description}`,
    path,
    extra: [
      jsonLd(organization),
      ...breadcrumbs(seo, [
        { name: "Networks", path: "/networks" },
        { name: n.name, path },
      ]),
    ],
  });
};

export default function NetworkPage({ loaderData, actionData }: Route.ComponentProps) {
  if ("retired" in loaderData)
    return (
      <NoLongerListed
        name={loaderData.retired.name}
        kind="network"
        to={{ href: "/networks", label: "Browse listed networks" }}
      />
    );
  return <ListedNetwork {...loaderData} actionData={actionData} />;
}

function ListedNetwork({
  network: n,
  offers,
  reviews,
  mine,
  signedIn,
  loginHref,
  siteName,
  watch,
  actionData,
}: Exclude<Route.ComponentProps["loaderData"], { retired: unknown }> & {
  actionData: Route.ComponentProps["actionData"];
}) {
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const pageHref = (key: "page" | "reviewsPage", hash: string) => (p: number) => {
    const next = new URLSearchParams(params);
    next.set(key, String(p));
    return `${networkPath(n)}?${next.toString()}${hash}`;
  };
  return (
    <article className="flex flex-col gap-4" aria-labelledby="network-name">
      <header className="card flex flex-wrap items-center gap-4">
        <NetworkLogo name={n.name} logoUrl={n.logoUrl} size={64} />
        <div className="min-w-0 flex-1">
          <h1 id="network-name" className="flex flex-wrap items-center gap-2 text-2xl font-semibold">
            {n.name} {n.featured && <FeaturedBadge />}
          </h1>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-600">
            <Stars rating={n.avgRating} />
            <span>
              {n.avgRating.toFixed(2)} · {n.reviewCount} {n.reviewCount === 1 ? "review" : "reviews"}
            </span>
            <span>· Trust score {n.trustScore.toFixed(2)}</span>
          </p>
        </div>
        <WatchStar kind="network" id={n.id} name={n.name} state={watch} />
        <JoinButton networkId={n.id} href={n.joiningLink ?? n.website} networkName={n.name} />
      </header>

      <section className="card" aria-labelledby="network-details">
        <h2 id="network-details" className="mb-2 text-base font-semibold">
          About {n.name}
        </h2>
        <p className="mb-3 text-sm text-slate-800">{n.description}</p>
        <dl className="grid gap-x-6 gap-y-1.5 text-sm sm:grid-cols-[11rem_1fr]">
          {isWebUrl(n.website) && (
            <>
              <dt className="font-medium text-slate-600">Website</dt>
              <dd>
                <a href={n.website} className="link" target="_blank" rel="noopener sponsored">
                  {n.website.replace(/^https?:\/\//, "")}
                </a>
              </dd>
            </>
          )}
          <dt className="font-medium text-slate-600">Payment terms</dt>
          <dd>{n.paymentTerms ?? "—"}</dd>
          <dt className="font-medium text-slate-600">Payment methods</dt>
          <dd>{n.paymentMethods.join(", ") || "—"}</dd>
          <dt className="font-medium text-slate-600">Minimum payment</dt>
          <dd>{n.minimumPayment === null ? "—" : `$${formatNumber(n.minimumPayment)}`}</dd>
          <dt className="font-medium text-slate-600">Tracking platform</dt>
          <dd>{n.trackingPlatform ?? "—"}</dd>
          <dt className="font-medium text-slate-600">Commission types</dt>
          <dd>{n.commissionTypes.join(", ") || "—"}</dd>
        </dl>
        <h3 className="mb-1 mt-4 text-sm font-semibold">On {siteName}</h3>
        <dl className="grid gap-x-6 gap-y-1.5 text-sm sm:grid-cols-[11rem_1fr]" data-testid="site-property">
          <dt className="font-medium text-slate-600">Offers</dt>
          <dd data-testid="property-offer-count">{n.offerCount}</dd>
          <dt className="font-medium text-slate-600">Paid account</dt>
          <dd>{n.paidAccount ? "Yes" : "No"}</dd>
          <dt className="font-medium text-slate-600">Joining link</dt>
          <dd>
            {n.joiningLink ? (
              <JoinButton networkId={n.id} href={n.joiningLink} networkName={n.name} className="link" />
            ) : (
              "—"
            )}
          </dd>
        </dl>
      </section>

      <section aria-labelledby="network-offers" id="offers">
        <h2 id="network-offers" className="mb-2 text-base font-semibold">
          Offers from {n.name} <span className="text-sm font-normal text-slate-600">({offers.total})</span>
        </h2>
        {offers.items.length === 0 ? (
          <p className="card text-sm">This network has no active offers right now.</p>
        ) : (
          <>
            <OffersTable offers={offers.items} compare={false} caption={`Offers from ${n.name}`} watch={watch} />
            <Pagination
              page={offers.page}
              pageCount={offers.pageCount}
              href={pageHref("page", "#offers")}
              label="Offers pages"
            />
          </>
        )}
      </section>

      <section className="card" aria-labelledby="network-reviews" id="reviews">
        <h2 id="network-reviews" className="mb-3 text-base font-semibold">
          Reviews of {n.name}
        </h2>
        <RatingSummary
          avgRating={reviews.avgRating}
          reviewCount={reviews.reviewCount}
          trustScore={reviews.trustScore}
          distribution={reviews.distribution}
        />
        <div className="mt-4">
          <ReviewList reviews={reviews.reviews} signedIn={signedIn} loginHref={loginHref} />
          <Pagination
            page={reviews.page}
            pageCount={reviews.pageCount}
            href={pageHref("reviewsPage", "#reviews")}
            label="Reviews pages"
          />
        </div>
      </section>

      <section className="card" aria-labelledby="write-review-heading" id="write-review">
        <h2 id="write-review-heading" className="mb-3 text-base font-semibold">
          {mine ? "Edit your review" : "Write a review"}
        </h2>
        <ReviewForm
          signedIn={signedIn}
          mine={mine}
          loginHref={loginHref}
          result={reviewResult(actionData)}
          busy={navigation.state === "submitting"}
        />
      </section>
    </article>
  );
}
