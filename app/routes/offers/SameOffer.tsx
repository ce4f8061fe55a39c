// "Same offer at other networks": the listings of one product side by side, best
// payout first. The offer page shows it under the offer; a retired offer's page
// shows it in place of the offer, as where to run it now.
import { Link } from "#app/ui/Link.tsx";
import { formatPayout } from "#contracts/money.ts";
import { offerUrl, type SameOfferRow } from "#contracts/offers.ts";
import { Stars } from "#app/ui/Stars.tsx";
import { typeText } from "./OfferFacts";
import { geosText } from "./format";

export function SameOfferTable({ offer, rows }: { offer: { name: string }; rows: SameOfferRow[] }) {
  return (
    // Positioned, like DataTable's box: the sr-only texts stay inside the scroll box.
    <div className="relative overflow-x-auto">
      <table className="data-table" data-testid="same-offer-table">
        <caption className="sr-only">{offer.name} at every network that lists it, best payout first</caption>
        <thead>
          <tr>
            <th scope="col">Network</th>
            <th scope="col">Rating</th>
            <th scope="col">Payout</th>
            <th scope="col">Type</th>
            <th scope="col">Geos</th>
            <th scope="col">
              <span className="sr-only">Link</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((o, i) => (
            <tr
              key={o.id}
              className={o.current ? "bg-brand-50" : undefined}
              data-payout-usd={o.payoutUsd ?? ""}
              aria-current={o.current ? "true" : undefined}
            >
              <td>
                <Link to={`/network/${o.networkId}/${o.networkSlug}`} className="hover:underline">
                  {o.networkName}
                </Link>
                {i === 0 && (
                  <span className="ml-2 rounded bg-green-100 px-1.5 text-[10px] font-semibold uppercase text-green-800">
                    Best payout
                  </span>
                )}
                {o.current && <span className="ml-2 text-xs text-slate-600">(this offer)</span>}
              </td>
              <td>
                <Stars rating={o.networkRating} />
              </td>
              <td className="whitespace-nowrap font-semibold">{formatPayout(o)}</td>
              <td>{typeText(o)}</td>
              <td className="text-xs text-slate-600">{geosText(o.countries)}</td>
              <td>
                {!o.current && (
                  <Link to={offerUrl(o)} className="link text-xs">
                    View<span className="sr-only"> at {o.networkName}</span>
                  </Link>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A retired offer's page: where the same product is still listed. */
export function SameOfferElsewhere({
  name,
  networkName,
  rows,
}: {
  name: string;
  networkName: string;
  rows: SameOfferRow[];
}) {
  return (
    <section className="card mx-auto max-w-3xl" aria-labelledby="same-offer-title">
      <h2 id="same-offer-title" className="mb-2 text-lg font-semibold">
        Same offer at other networks
      </h2>
      <p className="mb-2 text-sm text-slate-600">
        {`${name} is no longer available at ${networkName}. `}
        {rows.length ? "These networks still list it:" : "No other network lists it."}
      </p>
      {rows.length > 0 && <SameOfferTable offer={{ name }} rows={rows} />}
    </section>
  );
}
