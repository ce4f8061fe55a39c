-- Cold search (issue #16, docs/decisions/0031, amendment of this stop): the sponsored pins with
-- text. Sponsored offers are about 3% of the catalogue. When the 4,096 most popular of them held
-- fewer than three pins, the rest were walked (28,000 offers at a million, index only, 13–18 ms),
-- or the text index's bitmap was built over every offer holding the words, to keep the sponsored
-- ones. This text index holds only them, so the bitmap takes in only their entries (2–3 MB at a
-- million offers); the planner takes it whenever a search is limited to sponsored offers.
CREATE INDEX offers_sponsored_search_idx ON offers USING gin (search_document) WHERE status = 'active' AND sponsored;
