-- Offers search: indexes for the orders and lookups the search and the offer pages use,
-- so that no plan over offers needs a sequential scan (see bench/search.ts).

-- Sort by name (A–Z and Z–A).
CREATE INDEX offers_name_sort_idx ON offers (lower(name), id) WHERE status = 'active';
-- Sort by payout, lowest first; percent-only offers (no amount) stay last.
CREATE INDEX offers_payout_asc_idx ON offers (payout_usd ASC NULLS LAST, id) WHERE status = 'active';
-- Sort by network, and the network filter ordered by popularity.
CREATE INDEX offers_network_popularity_idx ON offers (network_id, popularity DESC, id DESC) WHERE status = 'active';
-- The Pay Per Call and Mobile tabs (and /pay-per-call-offers): small slices of the table.
CREATE INDEX offers_ppc_popularity_idx ON offers (popularity DESC, id DESC) WHERE status = 'active' AND ppc;
CREATE INDEX offers_mobile_popularity_idx ON offers (popularity DESC, id DESC) WHERE status = 'active' AND mobile;
-- GET /api/offers/{slug}: the same product slug may exist at several networks.
CREATE INDEX offers_slug_idx ON offers (slug);
-- Top searches group the recent log by keyword.
CREATE INDEX search_log_query_idx ON search_log (site_id, query, created_at);
