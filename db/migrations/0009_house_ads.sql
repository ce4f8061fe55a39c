-- House ads in the console (issue #12): a serving window in UTC days (no end date:
-- open-ended), updated_at to detect concurrent edits, the search keywords a
-- 370x165 ad answers to, and image ads beside text ads.
ALTER TABLE house_ads
  ADD COLUMN starts_on   date NOT NULL DEFAULT (now() AT TIME ZONE 'UTC')::date,
  ADD COLUMN ends_on     date,
  ADD COLUMN keywords    text[] NOT NULL DEFAULT '{}',
  ADD COLUMN updated_at  timestamptz NOT NULL DEFAULT now(),
  ADD CONSTRAINT house_ads_window_check CHECK (ends_on IS NULL OR ends_on >= starts_on),
  ADD CONSTRAINT house_ads_keywords_check CHECK (slot_size = '370x165' OR keywords = '{}');
-- Ads seeded before this migration have served since they were created.
UPDATE house_ads SET starts_on = (created_at AT TIME ZONE 'UTC')::date;

-- Impressions and clicks per ad and UTC day, written in batches; nothing about
-- the visitor (no address, account or cookie) is kept.
CREATE TABLE house_ad_stats (
  ad_id        bigint REFERENCES house_ads(id) ON DELETE CASCADE,
  day          date,
  impressions  bigint NOT NULL DEFAULT 0,
  clicks       bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (ad_id, day)
);
CREATE INDEX house_ad_stats_day_idx ON house_ad_stats (day);
