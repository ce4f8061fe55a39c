-- Offers edited from the operator's console (issue #12).
--
-- Retired: taken out of the directory by the operator. Unlike 'expired' (the
-- network ended the program; its page still shows it), a retired offer leaves
-- search, listings, counts, the sitemap and the feed, and its page answers 410.
-- Every query that lists offers already asks for status = 'active'.
ALTER TABLE offers DROP CONSTRAINT offers_status_check;
ALTER TABLE offers ADD CONSTRAINT offers_status_check
  CHECK (status IN ('active', 'paused', 'expired', 'retired'));

-- Sponsorship sold with a window (UTC days, both ends included; open when NULL)
-- and search keywords (empty: every search). An offer counts as sponsored only
-- inside its window and, with keywords, only for searches that contain one of
-- them (core/offers/columns.ts sponsoredNow).
ALTER TABLE offers
  ADD COLUMN sponsored_keywords text[] NOT NULL DEFAULT '{}',
  ADD COLUMN sponsored_from     date,
  ADD COLUMN sponsored_until    date,
  ADD CONSTRAINT offers_sponsored_window_check
    CHECK (sponsored_from IS NULL OR sponsored_until IS NULL OR sponsored_from <= sponsored_until);

-- The console's list, most recently changed first; updated_at is also the
-- version an edit names, so a concurrent edit answers 409 (core/offers/editor.ts).
CREATE INDEX offers_updated_idx ON offers (updated_at DESC, id DESC);
