// The /networks table: logo, name, rating, reviews, offers, payment terms, featured badge and Join.
import { Link } from "react-router";
import { networkPath } from "#contracts/networks.ts";
import { Stars } from "#app/ui/Stars.tsx";
import { JoinButton } from "#app/ui/JoinButton.tsx";
import { NetworkLogo } from "#app/ui/NetworkLogo.tsx";
import { FeaturedBadge } from "#app/ui/FeaturedBadge.tsx";
import { DataTable, HiddenHeading } from "#app/ui/DataTable.tsx";

export type NetworkRow = {
  id: number;
  name: string;
  slug: string;
  logoUrl: string | null;
  avgRating: number;
  reviewCount: number;
  offerCount: number;
  paymentTerms: string | null;
  featured: boolean;
  joiningLink: string | null;
};

export function NetworksTable({ networks }: { networks: NetworkRow[] }) {
  return (
    <DataTable
      caption="Affiliate networks"
      testId="networks-table"
      columns={[
        <HiddenHeading key="logo" label="Logo" />,
        "Network",
        "Rating",
        "Reviews",
        "Offers",
        "Payment terms",
        <HiddenHeading key="join" label="Join" />,
      ]}
    >
      {networks.map((n) => (
        <tr key={n.id} data-network-id={n.id} className={n.featured ? "bg-brand-50/60" : undefined}>
          <td className="w-12">
            <NetworkLogo name={n.name} logoUrl={n.logoUrl} />
          </td>
          <td>
            <Link to={networkPath(n)} className="link font-medium">
              {n.name}
            </Link>
            {n.featured && (
              <span className="ml-2">
                <FeaturedBadge />
              </span>
            )}
          </td>
          <td className="whitespace-nowrap">
            <Stars rating={n.avgRating} size={14} />{" "}
            <span className="text-xs text-slate-600">{n.avgRating.toFixed(1)}</span>
          </td>
          <td className="tabular-nums">{n.reviewCount}</td>
          <td className="tabular-nums">{n.offerCount}</td>
          <td className="whitespace-nowrap">{n.paymentTerms ?? "—"}</td>
          <td>
            <JoinButton
              networkId={n.id}
              href={n.joiningLink}
              networkName={n.name}
              className="btn-secondary px-3 py-1"
            />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
