// The console's catalogue (/api/admin/networks, /traffic-sources, /verticals,
// docs/api.md): what the console lists and edits, and the lists' filters. The
// editing rules live in core/networks/editor.ts, core/traffic-sources/editor.ts
// and core/reference/verticals.ts.
import { z } from "zod";
import { adminPage, adminSort } from "./admin.ts";

/** A network's or traffic source's status; only active ones are shown to visitors. */
export const CATALOGUE_STATUSES = ["active", "pending", "inactive", "retired"] as const;
export type CatalogueStatus = (typeof CATALOGUE_STATUSES)[number];

const searchText = z.preprocess(
  (v) => (v === "" ? undefined : v),
  z.string({ error: "search must be text" }).trim().max(100, "search must be at most 100 characters long").optional(),
);
const statusFilter = z.preprocess(
  (v) => (v === "" ? undefined : v),
  z.enum(CATALOGUE_STATUSES, { error: `status must be one of ${CATALOGUE_STATUSES.join(", ")}` }).optional(),
);

export const networkFilter = z.object({
  page: adminPage,
  // Newest change first by default (a list orders descending unless told `dir=asc`).
  ...adminSort(["name", "updatedAt", "offerCount", "reviewCount", "status"], "updatedAt"),
  status: statusFilter,
  search: searchText,
});
export type NetworkFilter = z.output<typeof networkFilter>;

export const trafficSourceFilter = z.object({
  page: adminPage,
  ...adminSort(["name", "updatedAt", "status"], "updatedAt"),
  status: statusFilter,
  search: searchText,
});
export type TrafficSourceFilter = z.output<typeof trafficSourceFilter>;

export const verticalFilter = z.object({
  page: adminPage,
  // Largest first by default.
  ...adminSort(["name", "offerCount", "updatedAt"], "offerCount"),
  search: searchText,
});
export type VerticalFilter = z.output<typeof verticalFilter>;

export type AdminNetworkProperty = {
  identifier: string;
  joiningLink: string | null;
  paidAccount: boolean;
  /** The network's pinned place in the site's listing (1 first), or null: shuffled with the rest. */
  displayOrder: number | null;
  offerCount: number;
};

export type AdminNetwork = {
  id: number;
  name: string;
  slug: string;
  description: string;
  logoUrl: string | null;
  website: string | null;
  featured: boolean;
  paymentTerms: string | null;
  paymentMethods: string[];
  minimumPayment: number | null;
  trackingPlatform: string | null;
  commissionTypes: string[];
  status: CatalogueStatus;
  offerCount: number;
  reviewCount: number;
  properties: AdminNetworkProperty[];
  retiredAt: string | null;
  createdAt: string;
  updatedAt: string;
};

export type AdminTrafficSource = {
  id: number;
  name: string;
  slug: string;
  description: string;
  website: string | null;
  logoUrl: string | null;
  featured: boolean;
  adFormats: string[];
  pricingModels: string[];
  minimumDeposit: number | null;
  geos: string[];
  status: CatalogueStatus;
  retiredAt: string | null;
  createdAt: string;
  updatedAt: string;
};

export type AdminVertical = {
  id: number;
  name: string;
  slug: string;
  top: boolean;
  /** Active offers in the vertical. */
  offerCount: number;
  updatedAt: string;
};
