// Networks as the API and the pages show them (docs/product.md §3), and the option lists
// of the add-your-network form (GET /api/network-options).

/** A network's listing on one site. */
export type NetworkProperty = {
  identifier: string;
  joiningLink: string | null;
  paidAccount: boolean;
  offerCount: number;
};

export type NetworkSummary = {
  id: number;
  name: string;
  slug: string;
  logoUrl: string | null;
  avgRating: number;
  reviewCount: number;
  /** Bayesian average (see contracts/reviews.ts trustScore). */
  trustScore: number;
  featured: boolean;
  paymentTerms: string | null;
  properties: NetworkProperty[];
  /** Copied from the property of the requesting site (docs/product.md §3); offerCount falls back to the network's own. */
  joiningLink: string | null;
  paidAccount: boolean;
  offerCount: number;
};

export type NetworkDetail = NetworkSummary & {
  legacyId: number | null;
  description: string;
  website: string | null;
  paymentMethods: string[];
  minimumPayment: number | null;
  trackingPlatform: string | null;
  commissionTypes: string[];
};

/** A network in the sidebar of featured networks. */
export type FeaturedNetwork = {
  id: number;
  slug: string;
  name: string;
  logoUrl: string | null;
  avgRating: number;
  offerCount: number;
};

/** A network in the list of the most pay-per-call offers. */
export type PayPerCallNetwork = {
  id: number;
  slug: string;
  name: string;
  avgRating: number;
  ppcOffers: number;
  bestPayoutUsd: number | null;
};

export const TRACKING_PLATFORMS = [
  "CAKE",
  "HasOffers/TUNE",
  "Everflow",
  "Affise",
  "HitPath",
  "LinkTrust",
  "Impact",
  "Post Affiliate Pro",
  "Custom",
] as const;
export const PAYMENT_FREQUENCIES = ["Net 7", "Net 15", "Net 30", "Weekly", "Bi-weekly", "Monthly"] as const;
export const PAYMENT_METHODS = [
  "PayPal",
  "Wire",
  "ACH",
  "Check",
  "Payoneer",
  "Bitcoin",
  "USDT",
  "Paxum",
  "WebMoney",
  "Direct Deposit",
] as const;
export const COMMISSION_TYPES = ["CPA", "CPL", "CPS", "RevShare", "CPI", "PPC"] as const;

export type NetworkOptions = {
  trackingPlatforms: string[];
  paymentFrequencies: string[];
  paymentMethods: string[];
  commissionTypes: string[];
  /** Category names, in their display order. */
  verticals: string[];
  /** The country list (docs/product.md §3): the United States first, then by name. */
  countries: { code: string; name: string }[];
};

/** The empty first option of every country select (docs/product.md §3). */
export const SELECT_COUNTRY = "Select Country";

/** Page size of the /networks table. */
export const NETWORKS_PAGE_SIZE = 20;

/**
 * A directory's shuffle, named in its page links (`order`): the same seed gives the same order,
 * so a visitor paging through /networks (with or without JavaScript, after a reload, or from a
 * shared link) sees every entry exactly once while each new visit starts from a fresh shuffle.
 */
export const DIRECTORY_ORDER = /^[A-Za-z0-9_-]{8,32}$/;

/** The canonical address of a network page. */
export const networkPath = (n: { id: number; slug: string }) => `/network/${n.id}/${encodeURIComponent(n.slug)}`;

/** Fisher–Yates with a caller-chosen source of randomness (tests pass a seeded one). */
export function shuffle<T>(items: readonly T[], random: () => number = Math.random): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** The name-sorted list of docs/product.md §4: only networks with offers, by lowercase name. */
export function sortNetworksByName<T extends { name: string; offerCount: number }>(networks: readonly T[]): T[] {
  return networks
    .filter((n) => n.offerCount > 0)
    .sort((a, b) => {
      const x = a.name.toLowerCase();
      const y = b.name.toLowerCase();
      return x < y ? -1 : x > y ? 1 : 0;
    });
}
