// The /traffic-sources directory: featured ones come first (the loader orders them); after
// logo and name, ad formats, pricing, minimum deposit and the number of geos.
import type { Directory } from "#app/routes/layouts/directory.tsx";
import { formatNumber } from "#contracts/numbers.ts";

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

export const depositText = (v: number | null) => (v === null ? "—" : v === 0 ? "None" : `$${formatNumber(v)}`);

export const TRAFFIC_SOURCES: Directory<TrafficSourceRow> = {
  slug: "traffic-sources",
  title: "Traffic sources",
  plural: "traffic sources",
  entry: "Traffic source",
  href: (s) => `/traffic-sources/details/${s.id}`,
  rowData: (s) => ({ "data-traffic-source-id": s.id, "data-featured": s.featured || undefined }),
  columns: ["Ad formats", "Pricing", "Min. deposit", "Geos"],
  cells: (s) => (
    <>
      <td className="text-xs">{s.adFormats.join(", ")}</td>
      <td className="text-xs">{s.pricingModels.join(", ")}</td>
      <td className="whitespace-nowrap">{depositText(s.minimumDeposit)}</td>
      <td className="tabular-nums">{s.geoCount}</td>
    </>
  ),
};
