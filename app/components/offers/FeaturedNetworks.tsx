// Sidebar box: featured networks (data from the page's loader, shuffled there).
import { Link } from "react-router";
import type { FeaturedNetwork } from "#core/offers/catalog.ts";

export function Stars({ rating }: { rating: number }) {
  const full = Math.round(rating);
  return (
    <span className="text-amber-500" role="img" aria-label={`Rated ${rating.toFixed(1)} out of 5`}>
      {"★".repeat(full)}<span className="text-slate-300">{"★".repeat(Math.max(0, 5 - full))}</span>
    </span>
  );
}

export function FeaturedNetworksBox({ networks }: { networks: FeaturedNetwork[] }) {
  if (!networks.length) return null;
  return (
    <section className="card p-3" aria-labelledby="featured-networks-title">
      <h2 id="featured-networks-title" className="mb-2 text-sm font-semibold">Featured networks</h2>
      <ul className="flex flex-col gap-2 text-sm">
        {networks.map((n) => (
          <li key={n.id} className="flex items-center justify-between gap-2">
            <Link to={`/network/${n.id}/${n.slug}`} className="link truncate">{n.name}</Link>
            <Stars rating={n.avgRating} />
          </li>
        ))}
      </ul>
    </section>
  );
}
