-- Close spellings (issue #16): the distinct words of offer names, with a trigram index.
-- A search that finds (almost) nothing looks up the catalogue words closest to each typed
-- word here, a table of tens of thousands of words, and then searches the offers for those
-- words through the full-text index, instead of testing every offer name's spelling
-- (seconds at a million offers). Words are the name's 'simple' lexemes, as in the weight-A
-- part of offers.search_document, so a close word always finds its offers there.
-- Words only accumulate: one left behind by a renamed offer finds nothing, which costs a
-- little speed, never a wrong answer.
CREATE TABLE offer_name_words (
  -- a–z and 0–9 only: a word is put into a tsquery as it is (core/offers/text-query.ts).
  word text PRIMARY KEY CHECK (word ~ '^[a-z0-9]+$')
);
CREATE INDEX offer_name_words_trgm_idx ON offer_name_words USING gin (word gin_trgm_ops);

CREATE FUNCTION oa_name_words(name text) RETURNS SETOF text LANGUAGE sql IMMUTABLE AS $$
  SELECT w FROM unnest(tsvector_to_array(to_tsvector('simple', coalesce(name, '')))) AS w
  WHERE w ~ '^[a-z0-9]+$' AND length(w) >= 3
$$;

INSERT INTO offer_name_words (word)
SELECT DISTINCT w FROM offers, oa_name_words(offers.name) AS w
ON CONFLICT DO NOTHING;

-- Once per statement for inserts (imports add thousands of offers at a time), per row for renames.
CREATE FUNCTION oa_offer_name_words_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO offer_name_words (word)
  SELECT DISTINCT w FROM inserted, oa_name_words(inserted.name) AS w
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER offers_name_words_inserted
  AFTER INSERT ON offers REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION oa_offer_name_words_inserted();

CREATE FUNCTION oa_offer_name_words_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO offer_name_words (word) SELECT DISTINCT w FROM oa_name_words(NEW.name) AS w
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER offers_name_words_renamed
  AFTER UPDATE OF name ON offers
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION oa_offer_name_words_renamed();
