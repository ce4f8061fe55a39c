// The /traffic-sources table: featured ones come first (the loader orders them).
import { Link } from "react-router";
import { FeaturedBadge } from "#app/components/networks/NetworksTable.tsx";
import { NetworkLogo } from "#app/components/networks/NetworkLogo.tsx";

export type TrafficSourceRow = {
  id: number; name: string; logoUrl: string | null; featured: boolean; adFormats: string[]; pricingModels: string[];
  minimumDeposit: number | null; geoCount: number;
};

export const depositText = (v: number | null) => (v === null ? "—" : v === 0 ? "None" : `$${v.toLocaleString("en-US")}`);

export function TrafficSourcesTable({ trafficSources }: { trafficSources: TrafficSourceRow[] }) {
  return (
    <div className="overflow-x-auto rounded-md border border-slate-200 bg-white">
      <table className="data-table" data-testid="traffic-sources-table">
        <caption className="sr-only">Traffic sources</caption>
        <thead>
          <tr>
            <th scope="col"><span className="sr-only">Logo</span></th>
            <th scope="col">Traffic source</th>
            <th scope="col">Ad formats</th>
            <th scope="col">Pricing</th>
            <th scope="col">Min. deposit</th>
            <th scope="col">Geos</th>
          </tr>
        </thead>
        <tbody>
          {trafficSources.map((s) => (
            <tr key={s.id} data-traffic-source-id={s.id} data-featured={s.featured || undefined} className={s.featured ? "bg-brand-50/60" : undefined}>
              <td className="w-12"><NetworkLogo name={s.name} logoUrl={s.logoUrl} /></td>
              <td>
                <Link to={`/traffic-sources/details/${s.id}`} className="link font-medium">{s.name}</Link>
                {s.featured && <span className="ml-2"><FeaturedBadge /></span>}
              </td>
              <td className="text-xs">{s.adFormats.join(", ")}</td>
              <td className="text-xs">{s.pricingModels.join(", ")}</td>
              <td className="whitespace-nowrap">{depositText(s.minimumDeposit)}</td>
              <td className="tabular-nums">{s.geoCount}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
