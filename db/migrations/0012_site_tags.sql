-- Third-party tags per site (docs/product.md §1, docs/decisions/0014): the ad
-- server's slots (Google Publisher Tag), the analytics id and the social pixel.
-- No row, or a row with every id empty, means nothing third-party loads.
-- updated_at detects concurrent edits in the console.
CREATE TABLE site_tags (
  site_id           text PRIMARY KEY REFERENCES sites(id),
  analytics_id      text,
  pixel_id          text,
  gpt_network_code  text,
  -- Ad unit code per slot size, e.g. {"728x90": "offeratlas/header"}.
  gpt_slots         jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- Whether visitors are asked before any tag loads (the default).
  consent_required  boolean NOT NULL DEFAULT true,
  updated_at        timestamptz NOT NULL DEFAULT now()
);
