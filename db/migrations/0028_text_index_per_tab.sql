-- Cold search (issue #16): the Pay Per Call and Mobile tabs with text. Building the text index's
-- bitmap is the costly part of a search at a million offers, and it costs by the entries it takes
-- in, not by the matches: "apps" on Pay Per Call took every offer holding a word that starts with
-- "app" (510,000 entries, 140 ms) to keep the 676 that pay per call. These text indexes hold
-- only the offers of each tab (6% and 29% of them; 5 MB and 23 MB at a million offers), and the
-- planner takes them whenever a search is limited to the tab ("apps" on Pay Per Call: 676 entries,
-- 0.2 ms; the whole search went from about 300 ms to 3 ms).
CREATE INDEX offers_ppc_search_idx ON offers USING gin (search_document) WHERE status = 'active' AND ppc;
CREATE INDEX offers_mobile_search_idx ON offers USING gin (search_document) WHERE status = 'active' AND mobile;
