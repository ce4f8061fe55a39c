-- The popularity order carries what a search tests on each offer (the name for typos). A search for
-- a common word walks this index, testing every offer until it has enough
-- matches (core/offers/order-windows.ts); with the words and filters in the
-- index, the walk reads index pages in order instead of one table page per
-- offer (measured at 1M offers: 30 ms instead of 200 ms for 1,001 matches).
DROP INDEX offers_popularity_idx;
CREATE INDEX offers_popularity_idx ON offers (popularity DESC, id DESC)
  INCLUDE (name, search_document, network_id, countries, category_ids, mobile, ppc, sponsored)
  WHERE status = 'active';
