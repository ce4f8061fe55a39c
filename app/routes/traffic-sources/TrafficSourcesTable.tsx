// The /traffic-sources table: featured ones come first (the loader orders them).
import { Link } from "react-router";
import { FeaturedBadge } from "#app/ui/FeaturedBadge.tsx";
import { DataTable, HiddenHeading } from "#app/ui/DataTable.tsx";
import { NetworkLogo } from "#app/ui/NetworkLogo.tsx";

export type TrafficSourceRow = {
  id: number;
  name: string;
  logoUrl: string | null;
  featured: boolean;
  adFormats: string[];
  pricingModels: string[];
  minimumDeposit: number | null;
  geoCount: number;
};

export const depositText = (v: number | null) =>
  v === null ? "—" : v === 0 ? "None" : `$${v.toLocaleString("en-US")}`;

export function TrafficSourcesTable({ trafficSources }: { trafficSources: TrafficSourceRow[] }) {
  return (
    <DataTable
      caption="Traffic sources"
      testId="traffic-sources-table"
      columns={[
        <HiddenHeading key="logo" label="Logo" />,
        "Traffic source",
        "Ad formats",
        "Pricing",
        "Min. deposit",
        "Geos",
      ]}
    >
      {trafficSources.map((s) => (
        <tr
          key={s.id}
          data-traffic-source-id={s.id}
          data-featured={s.featured || undefined}
          className={s.featured ? "bg-brand-50/60" : undefined}
        >
          <td className="w-12">
            <NetworkLogo name={s.name} logoUrl={s.logoUrl} />
          </td>
          <td>
            <Link to={`/traffic-sources/details/${s.id}`} className="link font-medium">
              {s.name}
            </Link>
            {s.featured && (
              <span className="ml-2">
                <FeaturedBadge />
              </span>
            )}
          </td>
          <td className="text-xs">{s.adFormats.join(", ")}</td>
          <td className="text-xs">{s.pricingModels.join(", ")}</td>
          <td className="whitespace-nowrap">{depositText(s.minimumDeposit)}</td>
          <td className="tabular-nums">{s.geoCount}</td>
        </tr>
      ))}
    </DataTable>
  );
}
