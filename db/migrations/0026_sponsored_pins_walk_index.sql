-- Sponsored pins (issue #16, cold search): the first page of Top Offers starts with the most
-- popular sponsored offers that match. The old index held the popularity only, so the planner,
-- unable to guess how many sponsored offers are inside their window of days, read every
-- sponsored offer from the table and sorted them (3% of the catalogue: 30,000 table reads at a
-- million offers, on every first page). This one is in the pins' own order and carries what a
-- search tests, so the pins are a walk of index pages that stops at the third match.
DROP INDEX offers_sponsored_idx;
CREATE INDEX offers_sponsored_idx ON offers (popularity DESC, id DESC)
  INCLUDE (search_document, network_id, countries, category_ids, mobile, ppc,
    sponsored_keywords, sponsored_from, sponsored_until)
  WHERE sponsored AND status = 'active';

-- The popularity order's covering index (migration 0004) is as wide as the offers' documents, so a
-- window of it is costly to read as a range. This narrow one lets a search collect the matches of a
-- word inside a window of the popularity order through the text index (the bitmaps of both,
-- intersected), reading only those offers, when walking the covering index past the others would
-- cost more (core/offers/order-windows.ts; 40,000 offers walked for "solar" at a million offers).
CREATE INDEX offers_popularity_range_idx ON offers (popularity DESC, id DESC) WHERE status = 'active';
