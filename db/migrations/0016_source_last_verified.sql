-- A sync run that finds an offer unchanged writes nothing to it (issue #13): the
-- source remembers when its last successful run started, and an offer that run saw
-- (missed_runs = 0, not retired) was verified then. When a run first misses an
-- offer, the time it was last seen is written into its own verified_at.
ALTER TABLE offer_sources ADD COLUMN last_verified_at timestamptz;

-- Sources synced before: their offers' own verified times stay as they were written.
UPDATE offer_sources s SET last_verified_at = (
  SELECT max(r.started_at) FROM offer_sync_runs r WHERE r.source_id = s.id AND r.status = 'succeeded');
