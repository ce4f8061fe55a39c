-- OfferAtlas schema. PostgreSQL dialect; runs unchanged on PGlite and PostgreSQL.
-- Extensions are shared by every schema of the database, so they live in public.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

-- Lowercase, accent-free, single-spaced text: the one normalisation used for
-- search keys and for grouping the same product across networks.
CREATE FUNCTION oa_normalize(t text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT btrim(regexp_replace(lower(coalesce(t, '')), '[^a-z0-9]+', ' ', 'g')) $$;

-- A site is one branded front end of the directory (spec: the site identifier header).
CREATE TABLE sites (
  id          text PRIMARY KEY,
  name        text NOT NULL,
  public_url  text,
  -- External addresses (dashboard, blog, social pages) differ per site.
  links       jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- Reference data, filled from data packages at start (see db/reference.ts).
CREATE TABLE countries (
  code        char(2) PRIMARY KEY,
  code3       char(3) NOT NULL,
  iso_numeric text NOT NULL,
  name        text NOT NULL,
  languages   text[] NOT NULL DEFAULT '{}',
  sort_order  integer NOT NULL
);

CREATE TABLE currencies (
  code           char(3) PRIMARY KEY,
  symbol         text NOT NULL,
  name           text NOT NULL,
  symbol_native  text NOT NULL,
  decimal_digits smallint NOT NULL,
  rounding       numeric(6,3) NOT NULL DEFAULT 0,
  name_plural    text NOT NULL,
  -- Fixed reference rate used only to rank payouts across currencies.
  usd_rate       numeric(14,6)
);

CREATE TABLE users (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email         text NOT NULL,
  email_key     text NOT NULL UNIQUE,          -- lower(trim(email)): one account per address
  password_hash text NOT NULL,                 -- argon2id
  name          text NOT NULL,
  phone         text,
  company       text,
  messenger     text,
  scope         text[] NOT NULL DEFAULT '{}',  -- e.g. {admin}
  site_id       text NOT NULL REFERENCES sites(id),
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);

-- Opaque random tokens; only their SHA-256 is stored.
CREATE TABLE sessions (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  token_hash   text NOT NULL UNIQUE,
  user_id      bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  remember     boolean NOT NULL DEFAULT false,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL,
  revoked_at   timestamptz,
  user_agent   text,
  ip_hash      text
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

CREATE TABLE password_resets (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  token_hash  text NOT NULL UNIQUE,
  user_id     bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);
CREATE INDEX password_resets_user_idx ON password_resets (user_id);

CREATE TABLE networks (
  id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  legacy_id          integer UNIQUE,
  slug               text NOT NULL UNIQUE,
  name               text NOT NULL,
  description        text NOT NULL DEFAULT '',
  logo_url           text,
  website            text,
  featured           boolean NOT NULL DEFAULT false,
  payment_terms      text,                       -- e.g. Net 30, Weekly
  payment_methods    text[] NOT NULL DEFAULT '{}',
  minimum_payment    numeric(12,2),
  tracking_platform  text,
  commission_types   text[] NOT NULL DEFAULT '{}',
  status             text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'pending', 'inactive')),
  avg_rating         numeric(3,2) NOT NULL DEFAULT 0,
  review_count       integer NOT NULL DEFAULT 0,
  offer_count        integer NOT NULL DEFAULT 0,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX networks_name_trgm_idx ON networks USING gin (name gin_trgm_ops);
CREATE INDEX networks_featured_idx ON networks (featured) WHERE featured;

-- A network's listing on one site (spec §3 properties: identifier, joiningLink, paidAccount, offerCount).
CREATE TABLE network_properties (
  network_id    bigint NOT NULL REFERENCES networks(id) ON DELETE CASCADE,
  identifier    text NOT NULL,
  joining_link  text,
  paid_account  boolean NOT NULL DEFAULT false,
  offer_count   integer NOT NULL DEFAULT 0,
  PRIMARY KEY (network_id, identifier)
);
CREATE INDEX network_properties_paid_idx ON network_properties (identifier) WHERE paid_account;

-- Verticals. "top" marks the short list shown first.
CREATE TABLE categories (
  id          integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  slug        text NOT NULL UNIQUE,
  name        text NOT NULL UNIQUE,
  top         boolean NOT NULL DEFAULT false,
  sort_order  integer NOT NULL DEFAULT 0
);

CREATE TABLE offers (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  legacy_id           integer UNIQUE,
  slug                text NOT NULL,
  network_id          bigint NOT NULL REFERENCES networks(id) ON DELETE CASCADE,
  external_id         text,
  name                text NOT NULL,
  description         text NOT NULL DEFAULT '',
  preview_url         text,
  -- Host of the landing page; with the normalised name it identifies one product across networks.
  landing_domain      text,
  product_key         text GENERATED ALWAYS AS (oa_normalize(name) || '|' || coalesce(lower(landing_domain), '')) STORED,
  payout_amount       numeric(12,2),
  currency            char(3) NOT NULL DEFAULT 'USD' REFERENCES currencies(code),
  payout_type         text NOT NULL CHECK (payout_type IN ('CPA', 'CPL', 'CPS', 'CPI', 'CPC', 'pay-per-call', 'revshare')),
  payout_percent      numeric(5,2),
  -- Payout in USD at the reference rate, for ranking only (maintained by the writer).
  payout_usd          numeric(12,2),
  countries           text[] NOT NULL DEFAULT '{}',  -- ISO alpha-2 codes
  category_ids        integer[] NOT NULL DEFAULT '{}',
  mobile              boolean NOT NULL DEFAULT false,
  ppc                 boolean NOT NULL DEFAULT false,
  allowed_traffic     text[] NOT NULL DEFAULT '{}',
  restricted_traffic  text[] NOT NULL DEFAULT '{}',
  sponsored           boolean NOT NULL DEFAULT false,
  status              text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused', 'expired')),
  popularity          integer NOT NULL DEFAULT 0,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  -- Weighted document: name (A), network and verticals (B), description (C). Kept by a trigger.
  search_document     tsvector NOT NULL DEFAULT ''::tsvector,
  UNIQUE (network_id, slug)
);
CREATE INDEX offers_search_idx ON offers USING gin (search_document);
CREATE INDEX offers_name_trgm_idx ON offers USING gin (name gin_trgm_ops);
CREATE INDEX offers_countries_idx ON offers USING gin (countries);
CREATE INDEX offers_categories_idx ON offers USING gin (category_ids);
CREATE INDEX offers_network_idx ON offers (network_id);
CREATE INDEX offers_product_idx ON offers (product_key);
CREATE INDEX offers_popularity_idx ON offers (popularity DESC, id DESC) WHERE status = 'active';
CREATE INDEX offers_created_idx ON offers (created_at DESC, id DESC) WHERE status = 'active';
CREATE INDEX offers_payout_idx ON offers (payout_usd DESC NULLS LAST, id DESC) WHERE status = 'active';
CREATE INDEX offers_sponsored_idx ON offers (popularity DESC) WHERE sponsored AND status = 'active';

CREATE FUNCTION oa_offer_search_document() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_document :=
      setweight(to_tsvector('simple', coalesce(NEW.name, '')), 'A')
   || setweight(to_tsvector('simple', coalesce((SELECT name FROM networks WHERE id = NEW.network_id), '')), 'B')
   || setweight(to_tsvector('simple', coalesce((SELECT string_agg(name, ' ') FROM categories WHERE id = ANY (NEW.category_ids)), '')), 'B')
   || setweight(to_tsvector('english', coalesce(NEW.description, '')), 'C');
  RETURN NEW;
END $$;
CREATE TRIGGER offers_search_document
  BEFORE INSERT OR UPDATE OF name, description, network_id, category_ids ON offers
  FOR EACH ROW EXECUTE FUNCTION oa_offer_search_document();

CREATE TABLE traffic_sources (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  legacy_id        integer UNIQUE,
  slug             text NOT NULL UNIQUE,
  name             text NOT NULL,
  description      text NOT NULL DEFAULT '',
  website          text,
  logo_url         text,
  featured         boolean NOT NULL DEFAULT false,
  ad_formats       text[] NOT NULL DEFAULT '{}',
  pricing_models   text[] NOT NULL DEFAULT '{}',
  minimum_deposit  numeric(12,2),
  geos             text[] NOT NULL DEFAULT '{}',
  status           text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'pending', 'inactive')),
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX traffic_sources_name_trgm_idx ON traffic_sources USING gin (name gin_trgm_ops);

CREATE TABLE reviews (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  network_id  bigint NOT NULL REFERENCES networks(id) ON DELETE CASCADE,
  user_id     bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  site_id     text NOT NULL REFERENCES sites(id),
  rating      smallint NOT NULL CHECK (rating BETWEEN 1 AND 5),
  comment     text NOT NULL,
  status      text NOT NULL DEFAULT 'published' CHECK (status IN ('published', 'pending', 'rejected')),
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (network_id, user_id)
);
CREATE INDEX reviews_network_idx ON reviews (network_id, created_at DESC);

CREATE TABLE join_clicks (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  network_id  bigint NOT NULL REFERENCES networks(id) ON DELETE CASCADE,
  site_id     text NOT NULL REFERENCES sites(id),
  user_id     bigint REFERENCES users(id) ON DELETE SET NULL,
  ip_hash     text,
  user_agent  text,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX join_clicks_network_idx ON join_clicks (network_id, created_at);

CREATE TABLE search_log (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id     text NOT NULL REFERENCES sites(id),
  query       text NOT NULL,      -- normalised
  result_count integer NOT NULL DEFAULT 0,
  ip_hash     text,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX search_log_recent_idx ON search_log (site_id, created_at);

-- Lead forms: stored first, mailed after (see mail_outbox), so nothing accepted is lost.
CREATE TABLE network_submissions (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id     text NOT NULL REFERENCES sites(id),
  status      text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  name        text NOT NULL,
  email       text NOT NULL,
  details     jsonb NOT NULL DEFAULT '{}'::jsonb,
  logo_path   text,               -- under DATA_DIR/uploads, named by the server
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE advertisement_requests (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id     text NOT NULL REFERENCES sites(id),
  name        text NOT NULL,
  email       text NOT NULL,
  details     jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE contact_messages (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id     text NOT NULL REFERENCES sites(id),
  name        text NOT NULL,
  email       text NOT NULL,
  subject     text NOT NULL DEFAULT '',
  message     text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE mail_outbox (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  recipient       text NOT NULL,
  subject         text NOT NULL,
  body_text       text NOT NULL,
  body_html       text,
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  sent_at         timestamptz,
  last_error      text,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at) WHERE sent_at IS NULL;

-- Our own banners, shown in ad slots when no paid campaign fills them.
CREATE TABLE house_ads (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id     text REFERENCES sites(id),   -- NULL: every site
  slot_size   text NOT NULL CHECK (slot_size IN ('728x90', '270x70', '250x250', '125x125', '370x165')),
  headline    text NOT NULL,
  body        text NOT NULL DEFAULT '',
  image_url   text,
  target_url  text NOT NULL,
  weight      integer NOT NULL DEFAULT 1 CHECK (weight > 0),
  active      boolean NOT NULL DEFAULT true,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX house_ads_slot_idx ON house_ads (slot_size) WHERE active;

-- Fixed-window counters shared by every app instance (rate limits).
CREATE TABLE rate_limits (
  key        text PRIMARY KEY,
  hits       integer NOT NULL,
  reset_at   timestamptz NOT NULL
);
