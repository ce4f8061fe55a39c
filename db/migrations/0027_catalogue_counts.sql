-- Counts kept where offers change (issue #16, docs/decisions/0032): a vertical's active
-- offers (/api/top-categories, the console's verticals) and a network's active pay-per-call
-- offers (/pay-per-call) were counted over the whole catalogue on every read (7.6 s and
-- 0.3 s at a million offers). Triggers on offers keep them instead, whoever writes: the
-- console, syncs, vertical merges, network retirements and deletes, seeding.
ALTER TABLE categories ADD COLUMN offer_count integer NOT NULL DEFAULT 0;
ALTER TABLE networks ADD COLUMN ppc_offer_count integer NOT NULL DEFAULT 0;

-- An active offer counts once in each vertical it names (as `category_ids && ARRAY[id]` counted it).
UPDATE categories c SET offer_count = x.n
FROM (SELECT v.id, count(*)::int AS n
      FROM offers o, LATERAL (SELECT DISTINCT unnest(o.category_ids)) AS v(id)
      WHERE o.status = 'active' GROUP BY v.id) x
WHERE x.id = c.id;
UPDATE networks n SET ppc_offer_count = x.n
FROM (SELECT network_id, count(*)::int AS n FROM offers WHERE status = 'active' AND ppc GROUP BY network_id) x
WHERE x.network_id = n.id;

-- A network's best pay-per-call payout: one index probe per network shown.
CREATE INDEX offers_ppc_payout_idx ON offers (network_id, payout_usd) WHERE status = 'active' AND ppc;

-- What a statement did to the counted offers: +1 for a row as it is now, -1 as it was.
CREATE TYPE oa_counted_offer AS (network_id bigint, category_ids integer[], ppc boolean, sign integer);

-- Writers that move counts take turns (one transaction-scoped lock per schema, until commit):
-- a transaction may move counts in several statements (a sync batch's inserts, then its
-- updates), so row locks taken statement by statement could cross another writer's.
CREATE FUNCTION oa_apply_offer_counts(moved oa_counted_offer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(moved) = 0 THEN RETURN; END IF;
  PERFORM pg_advisory_xact_lock(hashtext(current_schema() || ':offer-counts'));
  UPDATE categories c SET offer_count = c.offer_count + d.delta
  FROM (SELECT v.id, sum(m.sign)::int AS delta
        FROM unnest(moved) m, LATERAL (SELECT DISTINCT unnest(m.category_ids)) AS v(id)
        GROUP BY v.id HAVING sum(m.sign) <> 0) d
  WHERE c.id = d.id;
  UPDATE networks n SET ppc_offer_count = n.ppc_offer_count + d.delta
  FROM (SELECT m.network_id, sum(m.sign)::int AS delta FROM unnest(moved) m WHERE m.ppc
        GROUP BY m.network_id HAVING sum(m.sign) <> 0) d
  WHERE n.id = d.network_id;
END $$;

-- Once per statement: an import or a network's retirement moves thousands of offers at a time.
CREATE FUNCTION oa_offer_counts_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM oa_apply_offer_counts(ARRAY(
    SELECT (n.network_id, n.category_ids, n.ppc, 1)::oa_counted_offer FROM inserted n WHERE n.status = 'active'));
  RETURN NULL;
END $$;
CREATE TRIGGER offers_counts_inserted
  AFTER INSERT ON offers REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION oa_offer_counts_inserted();

-- Only rows whose counted columns changed (a sync's verified_at or a click's popularity moves nothing).
CREATE FUNCTION oa_offer_counts_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM oa_apply_offer_counts(ARRAY(
    SELECT m FROM before_rows b JOIN after_rows a ON a.id = b.id,
      LATERAL (VALUES ((b.network_id, b.category_ids, b.ppc, -1)::oa_counted_offer, b.status = 'active'),
                      ((a.network_id, a.category_ids, a.ppc, 1)::oa_counted_offer, a.status = 'active')) AS x(m, active)
    WHERE x.active
      AND (b.status, b.network_id, b.category_ids, b.ppc) IS DISTINCT FROM (a.status, a.network_id, a.category_ids, a.ppc)));
  RETURN NULL;
END $$;
CREATE TRIGGER offers_counts_updated
  AFTER UPDATE ON offers REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows
  FOR EACH STATEMENT EXECUTE FUNCTION oa_offer_counts_updated();

CREATE FUNCTION oa_offer_counts_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM oa_apply_offer_counts(ARRAY(
    SELECT (d.network_id, d.category_ids, d.ppc, -1)::oa_counted_offer FROM deleted d WHERE d.status = 'active'));
  RETURN NULL;
END $$;
CREATE TRIGGER offers_counts_deleted
  AFTER DELETE ON offers REFERENCING OLD TABLE AS deleted
  FOR EACH STATEMENT EXECUTE FUNCTION oa_offer_counts_deleted();

CREATE FUNCTION oa_offer_counts_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE categories SET offer_count = 0 WHERE offer_count <> 0;
  UPDATE networks SET ppc_offer_count = 0 WHERE ppc_offer_count <> 0;
  RETURN NULL;
END $$;
CREATE TRIGGER offers_counts_truncated
  AFTER TRUNCATE ON offers FOR EACH STATEMENT EXECUTE FUNCTION oa_offer_counts_truncated();
