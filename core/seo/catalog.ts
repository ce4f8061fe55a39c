// The public pages search engines should know about: their addresses, and the
// row sets they come from. Sitemaps and the /links page both read from here.
import { sql, type SQL } from "#db/client.ts";

export type EntryKind = "offers" | "networks" | "traffic-sources";

export const STATIC_PATHS = [
  "/",
  "/networks",
  "/traffic-sources",
  "/pay-per-call",
  "/pay-per-call-offers",
  "/advertise",
  "/add-your-network",
  "/contact",
  "/faq",
  "/links",
  "/privacy",
  "/terms",
] as const;

type KindDef = {
  /** Rows visible on the site: FROM + WHERE, with `t` as the table alias. */
  source: (siteId: string) => SQL;
  path: (row: { id: number; slug: string }) => string;
};

export const KINDS: Record<EntryKind, KindDef> = {
  offers: {
    source: () => sql`offers t WHERE t.status = 'active'`,
    path: (r) => `/offer/${r.id}/${encodeURIComponent(r.slug)}`,
  },
  networks: {
    // A network appears on the sites it has a listing (property) for.
    source: (siteId) =>
      sql`networks t WHERE t.status = 'active' AND EXISTS (SELECT 1 FROM network_properties p WHERE p.network_id = t.id AND p.identifier = ${siteId})`,
    path: (r) => `/network/${r.id}/${encodeURIComponent(r.slug)}`,
  },
  "traffic-sources": {
    source: () => sql`traffic_sources t WHERE t.status = 'active'`,
    path: (r) => `/traffic-sources/details/${r.id}`,
  },
};

export const isEntryKind = (k: string): k is EntryKind => Object.hasOwn(KINDS, k);
