-- Every word (lexeme) of the offers' documents, so a search's last word, matched as a prefix,
-- can be asked of the text index as the words it starts instead (core/offers/text-query.ts).
-- The index answers a prefix by collecting each word's offers into a bitmap of its own and then
-- reading that back: at a million offers "trial:*" takes 49 ms where "trial", the only word it
-- starts, takes 16 ms; "app:*" 134 ms where its six words take 61 ms.
-- C collation: LIKE 'prefix%' reads a range of the primary key.
-- Words only accumulate: one no document holds any more finds nothing, which costs a little
-- speed, never a wrong answer. A word missing here would lose matches, so the triggers below
-- add a document's words in the statement that writes it.
CREATE TABLE offer_document_words (
  word text COLLATE "C" PRIMARY KEY
);

INSERT INTO offer_document_words (word)
SELECT DISTINCT w FROM offers, unnest(tsvector_to_array(offers.search_document)) AS w
ON CONFLICT DO NOTHING;

CREATE FUNCTION oa_offer_document_words_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO offer_document_words (word)
  SELECT DISTINCT w FROM inserted, unnest(tsvector_to_array(inserted.search_document)) AS w
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER offers_document_words_inserted
  AFTER INSERT ON offers REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION oa_offer_document_words_inserted();

-- Per row, and only for a changed document: most updates (a click's popularity, a sync's
-- verified_at) leave it as it was.
CREATE FUNCTION oa_offer_document_words_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO offer_document_words (word)
  SELECT DISTINCT w FROM unnest(tsvector_to_array(NEW.search_document)) AS w
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER offers_document_words_changed
  AFTER UPDATE ON offers
  FOR EACH ROW WHEN (OLD.search_document IS DISTINCT FROM NEW.search_document)
  EXECUTE FUNCTION oa_offer_document_words_changed();
