-- Saved searches and e-mail alerts (issue #14): an affiliate's named offer searches,
-- the alert settings of those and of the watchlist, which changes each user was
-- already told about, and per-message mail headers (List-Unsubscribe). See core/alerts/alerts.ts.

-- A saved search: the payload of POST /api/offers/search, named. An alert looks at the
-- offer_history rows after last_change_id, at most once per slot of its frequency
-- (last_alerted_at, the job's clock). The unsubscribe token is 32 random bytes
-- (base64url): one-click links work signed out, so it must not be guessable.
CREATE TABLE saved_searches (
  id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id            bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name               text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
  payload            jsonb NOT NULL,
  alert_frequency    text NOT NULL DEFAULT 'none' CHECK (alert_frequency IN ('none', 'instant', 'daily', 'weekly')),
  unsubscribe_token  text NOT NULL,
  last_change_id     bigint NOT NULL DEFAULT 0,
  last_alerted_at    timestamptz NOT NULL DEFAULT now(),
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX saved_searches_token_idx ON saved_searches (unsubscribe_token);
CREATE INDEX saved_searches_user_idx ON saved_searches (user_id, id);
CREATE INDEX saved_searches_alerting_idx ON saved_searches (alert_frequency) WHERE alert_frequency <> 'none';

-- The watchlist's alert (the items themselves are watchlist_items, 0021): one row per user who set one.
CREATE TABLE watchlist_alerts (
  user_id            bigint PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  alert_frequency    text NOT NULL DEFAULT 'none' CHECK (alert_frequency IN ('none', 'instant', 'daily', 'weekly')),
  unsubscribe_token  text NOT NULL,
  last_change_id     bigint NOT NULL DEFAULT 0,
  last_alerted_at    timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX watchlist_alerts_token_idx ON watchlist_alerts (unsubscribe_token);

-- A digest covers every alert of one user at one frequency; its List-Unsubscribe token stops them all.
CREATE TABLE alert_digest_tokens (
  user_id    bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  frequency  text NOT NULL CHECK (frequency IN ('instant', 'daily', 'weekly')),
  token      text NOT NULL UNIQUE,
  PRIMARY KEY (user_id, frequency)
);

-- One change, one mention: a change (an offer_history row, a network's retirement) is
-- mailed to a user once, whichever of their alerts found it first. The subject is kept
-- so a saved search can later tell of the retirement of an offer it announced.
CREATE TABLE alert_mentions (
  user_id       bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  change_key    text NOT NULL,
  subject_kind  text NOT NULL CHECK (subject_kind IN ('search', 'watchlist')),
  subject_id    bigint NOT NULL,
  offer_id      bigint,
  mentioned_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, change_key)
);
CREATE INDEX alert_mentions_subject_idx ON alert_mentions (subject_kind, subject_id, offer_id);

-- Headers a message carries besides the usual ones (List-Unsubscribe, List-Unsubscribe-Post).
ALTER TABLE mail_outbox ADD COLUMN headers jsonb NOT NULL DEFAULT '{}'::jsonb;
