// Sidebar box: featured networks (data from the page's loader, shuffled there).
import { Link } from "#app/ui/Link.tsx";
import { Stars } from "#app/ui/Stars.tsx";
import type { FeaturedNetwork } from "#contracts/networks.ts";

export function FeaturedNetworksBox({ networks }: { networks: FeaturedNetwork[] }) {
  if (!networks.length) return null;
  return (
    <section className="card p-3" aria-labelledby="featured-networks-title">
      <h2 id="featured-networks-title" className="mb-2 text-sm font-semibold">
        Featured networks
      </h2>
      <ul className="flex flex-col gap-2 text-sm">
        {networks.map((n) => (
          <li key={n.id} className="flex items-center justify-between gap-2">
            <Link to={`/network/${n.id}/${n.slug}`} className="link truncate">
              {n.name}
            </Link>
            <Stars rating={n.avgRating} />
          </li>
        ))}
      </ul>
    </section>
  );
}
