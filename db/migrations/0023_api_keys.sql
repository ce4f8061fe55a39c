-- API keys for the public read API (issue #14): an account creates a key in
-- /account/api-keys and sees it once; only its SHA-256 is kept, with the first
-- characters (the prefix) so its owner can recognise it in the list. A revoked key
-- stays as a row (revoked_at) so the list and the audit of who used what keep it.
CREATE TABLE api_keys (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id       bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name          text NOT NULL DEFAULT '',
  -- The key's first 8 characters ("oa_live_" is not among them: it is the same for every key).
  prefix        text NOT NULL,
  -- Hex SHA-256 of the whole key; the key itself is never stored.
  key_hash      text NOT NULL UNIQUE,
  created_at    timestamptz NOT NULL DEFAULT now(),
  -- Written at most once a minute per key (core/account/api-keys.ts), not on every request.
  last_used_at  timestamptz,
  revoked_at    timestamptz
);
CREATE INDEX api_keys_user_idx ON api_keys (user_id, created_at DESC);
