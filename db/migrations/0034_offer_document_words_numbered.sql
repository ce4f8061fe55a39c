-- A typed text's known words are remembered (core/offers/text-query.ts, createKnownWords) for as
-- long as the documents' words stay the same. Words only accumulate, and each new one takes the
-- next number here, so the highest number names the words an answer was looked up among: a new
-- word, a new number, and every remembered answer is looked up again.
ALTER TABLE offer_document_words ADD COLUMN added bigint GENERATED ALWAYS AS IDENTITY;
CREATE UNIQUE INDEX offer_document_words_added_idx ON offer_document_words (added);

-- The highest number, read at the index's end whatever the caller's planner settings (a search
-- with text turns plain index scans off).
CREATE FUNCTION oa_document_words_added() RETURNS bigint LANGUAGE sql STABLE
  SET enable_indexscan = on SET enable_indexonlyscan = on
  AS $$ SELECT max(added) FROM offer_document_words $$;
