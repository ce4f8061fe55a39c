// The /networks directory: after logo and name, rating, reviews, offers, payment terms and Join.
import { networkPath, type NetworkSummary } from "#contracts/networks.ts";
import { Stars } from "#app/ui/Stars.tsx";
import { JoinButton } from "#app/ui/JoinButton.tsx";
import { HiddenHeading } from "#app/ui/DataTable.tsx";
import type { Directory } from "#app/routes/layouts/directory.tsx";

export type NetworkRow = Pick<
  NetworkSummary,
  | "id"
  | "name"
  | "slug"
  | "logoUrl"
  | "avgRating"
  | "reviewCount"
  | "offerCount"
  | "paymentTerms"
  | "featured"
  | "joiningLink"
>;

export const NETWORKS: Directory<NetworkRow> = {
  slug: "networks",
  title: "Affiliate networks",
  plural: "networks",
  entry: "Network",
  href: networkPath,
  rowData: (n) => ({ "data-network-id": n.id }),
  columns: ["Rating", "Reviews", "Offers", "Payment terms", <HiddenHeading key="join" label="Join" />],
  cells: (n) => (
    <>
      <td className="whitespace-nowrap">
        <Stars rating={n.avgRating} size={14} />{" "}
        <span className="text-xs text-slate-600">{n.avgRating.toFixed(1)}</span>
      </td>
      <td className="tabular-nums">{n.reviewCount}</td>
      <td className="tabular-nums">{n.offerCount}</td>
      <td className="whitespace-nowrap">{n.paymentTerms ?? "—"}</td>
      <td>
        <JoinButton networkId={n.id} href={n.joiningLink} networkName={n.name} className="btn-secondary px-3 py-1" />
      </td>
    </>
  ),
};
