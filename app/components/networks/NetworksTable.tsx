// The /networks table: logo, name, rating, reviews, offers, payment terms, featured badge and Join.
import { Link } from "react-router";
import { networkPath } from "#contracts/networks.ts";
import { Stars } from "#app/components/reviews/Stars.tsx";
import { JoinButton } from "./JoinButton";
import { NetworkLogo } from "./NetworkLogo";

export type NetworkRow = {
  id: number; name: string; slug: string; logoUrl: string | null; avgRating: number; reviewCount: number;
  offerCount: number; paymentTerms: string | null; featured: boolean; joiningLink: string | null;
};

export function FeaturedBadge() {
  return <span className="rounded bg-brand-600 px-1.5 py-0.5 text-[10px] font-semibold uppercase tracking-wide text-white">Featured</span>;
}

export function NetworksTable({ networks }: { networks: NetworkRow[] }) {
  return (
    <div className="overflow-x-auto rounded-md border border-slate-200 bg-white">
      <table className="data-table" data-testid="networks-table">
        <caption className="sr-only">Affiliate networks</caption>
        <thead>
          <tr>
            <th scope="col"><span className="sr-only">Logo</span></th>
            <th scope="col">Network</th>
            <th scope="col">Rating</th>
            <th scope="col">Reviews</th>
            <th scope="col">Offers</th>
            <th scope="col">Payment terms</th>
            <th scope="col"><span className="sr-only">Join</span></th>
          </tr>
        </thead>
        <tbody>
          {networks.map((n) => (
            <tr key={n.id} data-network-id={n.id} className={n.featured ? "bg-brand-50/60" : undefined}>
              <td className="w-12"><NetworkLogo name={n.name} logoUrl={n.logoUrl} /></td>
              <td>
                <Link to={networkPath(n)} className="link font-medium">{n.name}</Link>
                {n.featured && <span className="ml-2"><FeaturedBadge /></span>}
              </td>
              <td className="whitespace-nowrap"><Stars rating={n.avgRating} size={14} /> <span className="text-xs text-slate-600">{n.avgRating.toFixed(1)}</span></td>
              <td className="tabular-nums">{n.reviewCount}</td>
              <td className="tabular-nums">{n.offerCount}</td>
              <td className="whitespace-nowrap">{n.paymentTerms ?? "—"}</td>
              <td><JoinButton networkId={n.id} href={n.joiningLink} networkName={n.name} className="btn-secondary px-3 py-1" /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
