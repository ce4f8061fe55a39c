-- Cold search (issue #16, docs/decisions/0060): the sponsored offers' text index holds the
-- countries and verticals too, as the other text indexes do since migration 0032, so the pins of
-- a search with filters are collected by one scan of it. Before, only the text index of every
-- offer took a search's filters (written `column || '{}'`, see search.ts), and the planner, taking
-- the words and the filters as unrelated, preferred it: the pins of "skin care" in the US and the
-- Skin Care vertical read the 18,575 offers matching there, of which 537 are sponsored (59 ms at a
-- million offers); through this index, only those 537 (1.6 ms).
DROP INDEX offers_sponsored_search_idx;
CREATE INDEX offers_sponsored_search_idx ON offers
  USING gin (search_document, (countries || '{}'::text[]), (category_ids || '{}'::int[]))
  WHERE status = 'active' AND sponsored;
-- Statistics of the new index's expressions before the first search (migration 0032).
ANALYZE offers;
