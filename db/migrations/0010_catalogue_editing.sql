-- Catalogue editing from the console (issue #12): networks and traffic sources
-- can be retired (kept, so old links answer 410, but out of every listing, the
-- search, the sitemap and the counts, which all read status = 'active'), and a
-- network's listing on a site can be pinned to a place in the list.
ALTER TABLE networks DROP CONSTRAINT networks_status_check;
ALTER TABLE networks ADD CONSTRAINT networks_status_check CHECK (status IN ('active', 'pending', 'inactive', 'retired'));
ALTER TABLE networks ADD COLUMN retired_at timestamptz;

ALTER TABLE traffic_sources DROP CONSTRAINT traffic_sources_status_check;
ALTER TABLE traffic_sources ADD CONSTRAINT traffic_sources_status_check
  CHECK (status IN ('active', 'pending', 'inactive', 'retired'));
ALTER TABLE traffic_sources ADD COLUMN retired_at timestamptz;

-- A placement: 1 is shown first on the site; NULL keeps the network in the shuffled rest.
ALTER TABLE network_properties ADD COLUMN display_order integer CHECK (display_order BETWEEN 1 AND 10000);

-- Verticals are renamed and merged from the console; updated_at detects concurrent edits.
ALTER TABLE categories ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();

-- Console lists filter by status and sort by recent change.
CREATE INDEX networks_status_idx ON networks (status, updated_at DESC);
CREATE INDEX traffic_sources_status_idx ON traffic_sources (status, updated_at DESC);
