// /pay-per-call: what pay-per-call is, the networks with the most call offers
// and the most popular call offers right now.
import { Link } from "#app/ui/Link.tsx";
import { offerSearchPayload } from "#contracts/offers.ts";
import { requestContext } from "#app/context.ts";
import { Stars } from "#app/ui/Stars.tsx";
import { OffersTable } from "./OffersTable";
import { CompareBar, CompareProvider } from "./compare-selection";
import type { Route } from "./+types/pay-per-call";
import { fixedPageMeta } from "#app/lib/seo.ts";
import { formatNumber } from "#contracts/numbers.ts";

export const meta: Route.MetaFunction = fixedPageMeta({
  title: "Pay per call",
  description:
    "What pay-per-call affiliate marketing is, the top pay-per-call networks and the best-paying call offers.",
  path: "/pay-per-call",
});

export async function loader({ context }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  const [networks, top] = [
    await services.offers.payPerCallNetworks(),
    await services.offers.search(offerSearchPayload.parse({ selectedTab: "payPerCall" })),
  ];
  return { networks, offers: top.offers.slice(0, 10), total: top.total, totalCapped: top.totalCapped };
}

export default function PayPerCall({ loaderData }: Route.ComponentProps) {
  const { networks, offers, total, totalCapped } = loaderData;
  return (
    <div className="flex flex-col gap-4">
      <section className="card" aria-labelledby="ppc-title">
        <h1 id="ppc-title" className="text-2xl font-semibold">
          Pay per call
        </h1>
        <p className="mt-2 text-slate-700">
          Pay-per-call offers pay for qualified phone calls instead of clicks or leads. You send callers to a tracked
          phone number — from search ads, landing pages, social or print — and the advertiser pays a fixed amount for
          every call that lasts longer than the offer's minimum duration (often 60 to 120 seconds).
        </p>
        <ul className="mt-3 list-disc pl-5 text-sm text-slate-700">
          <li>
            High payouts: a caller is a warm prospect, so insurance, legal, home services and finance offers often pay
            $25–$150 per call.
          </li>
          <li>Check the call duration, the hours the call center is open and the geos before you send traffic.</li>
          <li>
            Some traffic types (incentive, auto-dialers) are almost always restricted — read each offer's restrictions.
          </li>
        </ul>
        <p className="mt-3 text-sm">
          <Link to="/pay-per-call-offers" className="btn-primary inline-block">
            Search all {formatNumber(total)}
            {totalCapped ? "+" : ""} pay-per-call offers
          </Link>
        </p>
      </section>

      <section className="card" aria-labelledby="ppc-networks-title">
        <h2 id="ppc-networks-title" className="mb-2 text-lg font-semibold">
          Top pay-per-call networks
        </h2>
        {networks.length === 0 ? (
          <p className="text-sm text-slate-600">No network lists pay-per-call offers yet.</p>
        ) : (
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Network</th>
                <th scope="col">Rating</th>
                <th scope="col">Call offers</th>
              </tr>
            </thead>
            <tbody>
              {networks.map((n) => (
                <tr key={n.id}>
                  <td>
                    <Link to={`/network/${n.id}/${n.slug}`} className="link">
                      {n.name}
                    </Link>
                  </td>
                  <td>
                    <Stars rating={n.avgRating} />
                  </td>
                  <td>{n.ppcOffers}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section aria-labelledby="ppc-offers-title">
        <h2 id="ppc-offers-title" className="mb-2 text-lg font-semibold">
          Top pay-per-call offers
        </h2>
        <CompareProvider>
          <OffersTable offers={offers} caption="Top pay-per-call offers" />
          <CompareBar />
        </CompareProvider>
      </section>
    </div>
  );
}
