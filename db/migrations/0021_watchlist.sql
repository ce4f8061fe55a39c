-- Watchlist (issue #14): the offers and networks an affiliate follows. last_seen_at is
-- when the user last opened /account/watchlist; the page shows what changed after it.
CREATE TABLE watchlist_items (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id       bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  offer_id      bigint REFERENCES offers(id) ON DELETE CASCADE,
  network_id    bigint REFERENCES networks(id) ON DELETE CASCADE,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_seen_at  timestamptz NOT NULL DEFAULT now(),
  -- An item follows one thing: an offer or a network, never both or neither.
  CONSTRAINT watchlist_items_one_target CHECK ((offer_id IS NULL) <> (network_id IS NULL)),
  -- Following twice answers the existing item (NULLs are distinct, so each pair only
  -- constrains the rows of its own kind).
  CONSTRAINT watchlist_items_user_offer_key UNIQUE (user_id, offer_id),
  CONSTRAINT watchlist_items_user_network_key UNIQUE (user_id, network_id)
);
-- The cascades from offers and networks, and alerts finding who follows a changed offer.
CREATE INDEX watchlist_items_offer_idx ON watchlist_items (offer_id) WHERE offer_id IS NOT NULL;
CREATE INDEX watchlist_items_network_idx ON watchlist_items (network_id) WHERE network_id IS NOT NULL;
