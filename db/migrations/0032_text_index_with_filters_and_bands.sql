-- Cold search (issue #16, docs/decisions/0048): one scan of the text index for a search's text,
-- its filters and its order window.
--
-- A GIN index over several columns answers conditions on all of them in one scan, and that scan
-- skips: it steps through the rarest key's entries and looks up the others only around them.
-- Before, the text index built the bitmap of every offer holding the words ("app:*" takes in
-- 431,810 offers at a million, "survey" 23,083), to be intersected afterwards with a country's
-- bitmap (647,000 offers for "US") or with an order's range, or the filter was tested on every
-- match read from the table.
--
-- Filters: the countries and verticals enter as expressions (`countries || '{}'`, the same array),
-- which a search with text writes the same way, so only the text index can take them. Given the
-- plain columns, the planner sometimes took a filter's own index alone (a vertical's 189 offers,
-- for the one offer holding a rare word). Countries and verticals keep those indexes for searches
-- without text.
--
-- Order bands: each offer holds a band for every step its payout and its popularity reach
-- (`oa_bands`: steps 0, 1, 2, 4, 8, …), and a window of an order ("the 16,384 best paid", its edge
-- a payout) lies inside the band of the highest step its edge reaches (`oa_band_at_least`). A
-- search reading the matches inside a window asks the text index for that band too: one more key
-- for the scan, so it takes in the matches near the top of the order, not every match. The band
-- starts at the step below the edge, no lower than half its value; the exact edge is still tested,
-- so answers do not change. Descending orders only (the tabs' own); about ten bands an offer.
CREATE FUNCTION oa_band_steps(key text) RETURNS numeric[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE key
    WHEN 'payout' THEN '{0,1,2,4,8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536,131072}'::numeric[]
    WHEN 'popularity' THEN '{0,1,2,4,8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576,2097152,4194304,8388608,16777216,33554432,67108864,134217728,268435456,536870912,1073741824,2147483648}'::numeric[]
  END
$$;
-- Band numbers: 1001–1019 payout, 2001–2033 popularity.
CREATE FUNCTION oa_band_base(key text) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE key WHEN 'payout' THEN 1000 WHEN 'popularity' THEN 2000 END
$$;
-- The bands of every step `value` reaches (none for a missing or negative value).
CREATE FUNCTION oa_bands(key text, value numeric) RETURNS integer[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(oa_band_base(key) + step ORDER BY step), '{}')
  FROM generate_series(1, width_bucket(value, oa_band_steps(key))) AS step
$$;
-- The band of the highest step `edge` reaches: every offer at or above the edge holds it.
CREATE FUNCTION oa_band_at_least(key text, edge numeric) RETURNS integer[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ARRAY[oa_band_base(key) + width_bucket(edge, oa_band_steps(key))]
$$;
ALTER TABLE offers ADD COLUMN order_bands integer[] NOT NULL
  GENERATED ALWAYS AS (oa_bands('payout', payout_usd) || oa_bands('popularity', popularity)) STORED;

DROP INDEX offers_search_idx;
CREATE INDEX offers_search_idx ON offers
  USING gin (search_document, (countries || '{}'::text[]), (category_ids || '{}'::int[]), order_bands);
DROP INDEX offers_ppc_search_idx;
CREATE INDEX offers_ppc_search_idx ON offers
  USING gin (search_document, (countries || '{}'::text[]), (category_ids || '{}'::int[]), order_bands)
  WHERE status = 'active' AND ppc;
DROP INDEX offers_mobile_search_idx;
CREATE INDEX offers_mobile_search_idx ON offers
  USING gin (search_document, (countries || '{}'::text[]), (category_ids || '{}'::int[]), order_bands)
  WHERE status = 'active' AND mobile;

-- The planner needs statistics of the new column and of the index's expressions before the first
-- search: the first benchmark after migrating a million offers, before any ANALYZE, ran the
-- search mix at 20 searches/s, against 33–48 after. The rewritten table also wants a VACUUM (its
-- visibility map, for index-only walks), which cannot run in a migration's transaction: run
-- `VACUUM ANALYZE offers` after upgrading, where autovacuum is off or slow (docs/capacity.md).
ANALYZE offers;
