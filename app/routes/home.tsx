import { Link } from "react-router";
import { formatPayout } from "#contracts/money.ts";
import { requestContext } from "#app/context.ts";
import type { Route } from "./+types/home";

export async function loader({ context }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  return { offers: await services.offers.top(25) };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <section aria-labelledby="top-offers">
      <h2 id="top-offers" className="mb-2 text-base font-semibold">Top offers</h2>
      <div className="overflow-x-auto rounded-md border border-slate-200 bg-white">
        <table className="data-table">
          <thead>
            <tr><th>Offer</th><th>Network</th><th>Payout</th><th>Type</th><th>Geos</th></tr>
          </thead>
          <tbody>
            {loaderData.offers.map((o) => (
              <tr key={o.id} className={o.sponsored ? "bg-amber-50" : undefined}>
                <td>
                  <Link to={`/offer/${o.id}/${o.slug}`} className="link font-medium">{o.name}</Link>
                  {o.sponsored && <span className="ml-2 rounded bg-amber-200 px-1.5 text-[10px] font-semibold uppercase text-amber-900">Sponsored</span>}
                </td>
                <td><Link to={`/network/${o.networkId}`} className="text-slate-700 hover:underline">{o.networkName}</Link></td>
                <td className="whitespace-nowrap font-semibold">{formatPayout(o)}</td>
                <td>{o.payoutType}</td>
                <td className="text-xs text-slate-600">{o.countries.slice(0, 4).join(", ")}{o.countries.length > 4 ? ` +${o.countries.length - 4}` : ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
