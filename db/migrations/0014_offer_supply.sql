-- Offer supply (issue #13): where a network's offers come from (a platform's
-- affiliate API or a feed), each sync run with its counts, and every offer's
-- payout history. Credentials are stored encrypted (core/supply/secrets.ts).
CREATE TABLE offer_sources (
  id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  network_id         bigint NOT NULL REFERENCES networks(id) ON DELETE CASCADE,
  platform           text NOT NULL CHECK (platform IN ('everflow', 'tune', 'cake', 'affise', 'feed')),
  endpoint           text NOT NULL,
  -- AES-256-GCM under SECRETS_KEY: version byte, 12-byte IV, 16-byte tag, ciphertext. Never sent out.
  credentials        bytea,
  -- Platform options that are not secret (an affiliate id, a feed's column mapping).
  settings           jsonb NOT NULL DEFAULT '{}'::jsonb,
  every_minutes      integer NOT NULL DEFAULT 360 CHECK (every_minutes BETWEEN 5 AND 10080),
  -- An offer missing from this many successful runs in a row is retired.
  retire_after_runs  integer NOT NULL DEFAULT 3 CHECK (retire_after_runs BETWEEN 1 AND 100),
  enabled            boolean NOT NULL DEFAULT true,
  state              text NOT NULL DEFAULT 'new' CHECK (state IN ('new', 'ok', 'failing')),
  last_error         text,
  next_run_at        timestamptz NOT NULL DEFAULT now(),
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX offer_sources_network_idx ON offer_sources (network_id);
CREATE INDEX offer_sources_due_idx ON offer_sources (next_run_at) WHERE enabled;

CREATE TABLE offer_sync_runs (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  source_id    bigint NOT NULL REFERENCES offer_sources(id) ON DELETE CASCADE,
  status       text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'succeeded', 'failed')),
  started_at   timestamptz NOT NULL DEFAULT now(),
  finished_at  timestamptz,
  seen         integer NOT NULL DEFAULT 0,
  new          integer NOT NULL DEFAULT 0,
  changed      integer NOT NULL DEFAULT 0,
  unchanged    integer NOT NULL DEFAULT 0,
  retired      integer NOT NULL DEFAULT 0,
  skipped      integer NOT NULL DEFAULT 0,
  -- Why records were skipped: reason → count.
  skipped_reasons jsonb NOT NULL DEFAULT '{}'::jsonb,
  error        text
);
CREATE INDEX offer_sync_runs_source_idx ON offer_sync_runs (source_id, started_at DESC);

-- A synced offer remembers its source, when a run last saw it, how many successful
-- runs in a row missed it, and a hash of what the source said (an unchanged record writes nothing).
ALTER TABLE offers
  ADD COLUMN source_id     bigint REFERENCES offer_sources(id) ON DELETE SET NULL,
  ADD COLUMN verified_at   timestamptz,
  ADD COLUMN missed_runs   integer NOT NULL DEFAULT 0,
  ADD COLUMN source_hash   text;
CREATE UNIQUE INDEX offers_source_external_idx ON offers (source_id, external_id) WHERE source_id IS NOT NULL;

-- Every change of payout, currency, type or status, as affiliates see it on the offer page.
CREATE TABLE offer_history (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  offer_id        bigint NOT NULL REFERENCES offers(id) ON DELETE CASCADE,
  recorded_at     timestamptz NOT NULL DEFAULT now(),
  payout_amount   numeric(12,2),
  payout_percent  numeric(5,2),
  currency        char(3) NOT NULL,
  payout_type     text NOT NULL,
  payout_usd      numeric(12,2),
  status          text NOT NULL,
  run_id          bigint REFERENCES offer_sync_runs(id) ON DELETE SET NULL
);
CREATE INDEX offer_history_offer_idx ON offer_history (offer_id, recorded_at);

-- A platform's category names mapped to the directory's verticals; a name with no
-- vertical yet waits in the console's queue instead of being guessed.
CREATE TABLE platform_categories (
  platform     text NOT NULL,
  name         text NOT NULL,
  category_id  integer REFERENCES categories(id) ON DELETE SET NULL,
  first_seen   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (platform, name)
);
