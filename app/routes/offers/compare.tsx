// /compare?ids=1,2,3: up to four offers side by side (payout, type, geos,
// verticals, network rating, traffic allowed). Picked from any offers table.
import { Link } from "#app/ui/Link.tsx";
import { COMPARE_MAX, compareIdsFromUrl, offerUrl } from "#contracts/offers.ts";
import { requestContext } from "#app/context.ts";
import { Stars } from "#app/ui/Stars.tsx";
import { OfferJoinButton, listText, payoutText, typeText } from "./OfferFacts";
import { DataTable, HiddenHeading } from "#app/ui/DataTable.tsx";
import type { OfferDetail } from "#contracts/offers.ts";
import type { Route } from "./+types/compare";
import { unlistedPageMeta } from "#app/lib/seo.ts";

export const meta: Route.MetaFunction = (args) =>
  unlistedPageMeta(args, {
    title: "Compare offers",
    description: "The offers you picked, side by side: payout, payout type, geos, network and rating.",
  });

export async function loader({ request, context }: Route.LoaderArgs) {
  const { services, site } = context.get(requestContext);
  const params = new URL(request.url).searchParams;
  const asked = params
    .getAll("ids")
    .flatMap((v) => v.split(","))
    .filter(Boolean).length;
  const offers = await services.offers.compare(site.id, compareIdsFromUrl(params));
  return { offers, truncated: asked > COMPARE_MAX };
}

const ROWS: [string, (o: OfferDetail) => React.ReactNode][] = [
  [
    "Network",
    (o) => (
      <Link to={`/network/${o.network.id}/${o.network.slug}`} className="link">
        {o.network.name}
      </Link>
    ),
  ],
  [
    "Network rating",
    (o) => (
      <>
        <Stars rating={o.network.avgRating} />{" "}
        <span className="text-xs text-slate-600">{o.network.avgRating.toFixed(1)}</span>
      </>
    ),
  ],
  ["Payout", (o) => <strong>{payoutText(o)}</strong>],
  ["Payout type", typeText],
  ["Geos", (o) => listText(o.countries.map((c) => c.name))],
  ["Verticals", (o) => listText(o.categories.map((c) => c.name))],
  ["Traffic allowed", (o) => listText(o.allowedTraffic)],
  ["Traffic restricted", (o) => listText(o.restrictedTraffic, "None listed")],
  ["Mobile", (o) => (o.mobile ? "Yes" : "No")],
];

export default function Compare({ loaderData }: Route.ComponentProps) {
  const { offers, truncated } = loaderData;
  return (
    <section aria-labelledby="compare-title">
      <h1 id="compare-title" className="mb-3 text-2xl font-semibold">
        Compare offers
      </h1>
      {truncated && (
        <p className="mb-2 text-sm text-slate-600" role="note">
          Only the first {COMPARE_MAX} offers are compared.
        </p>
      )}
      {offers.length === 0 ? (
        <p className="text-slate-600">
          No offers to compare. Tick up to {COMPARE_MAX} offers in the{" "}
          <Link to="/" className="link">
            offers table
          </Link>{" "}
          and press Compare.
        </p>
      ) : (
        <DataTable
          caption="Offers side by side"
          testId="compare-table"
          columns={[
            <HiddenHeading key="field" label="Field" />,
            ...offers.map((o) => (
              <th key={o.id} scope="col" className="min-w-44 normal-case tracking-normal">
                <Link to={offerUrl(o)} className="link text-sm">
                  {o.name}
                </Link>
              </th>
            )),
          ]}
        >
          {ROWS.map(([label, cell]) => (
            <tr key={label}>
              <th scope="row" className="whitespace-nowrap bg-slate-50 text-left text-xs font-semibold text-slate-600">
                {label}
              </th>
              {offers.map((o) => (
                <td key={o.id}>{cell(o)}</td>
              ))}
            </tr>
          ))}
          <tr>
            <th scope="row" className="bg-slate-50">
              <span className="sr-only">Join</span>
            </th>
            {offers.map((o) => (
              <td key={o.id}>
                <OfferJoinButton network={o.network} className="btn-secondary" />
              </td>
            ))}
          </tr>
        </DataTable>
      )}
    </section>
  );
}
