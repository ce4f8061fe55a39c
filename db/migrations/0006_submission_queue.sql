-- The console's queue of network submissions (from /add-your-network): a
-- moderator approves one (the listing it created or updated), rejects it (the
-- reason is mailed to the submitter) or marks it as a duplicate of a listed
-- network. The API calls 'pending' "new".
ALTER TABLE network_submissions DROP CONSTRAINT network_submissions_status_check;
ALTER TABLE network_submissions ADD CONSTRAINT network_submissions_status_check
  CHECK (status IN ('pending', 'approved', 'rejected', 'duplicate'));

ALTER TABLE network_submissions
  ADD COLUMN decided_by  bigint REFERENCES users(id) ON DELETE SET NULL,
  ADD COLUMN decided_at  timestamptz,
  ADD COLUMN reason      text,      -- why it was rejected
  ADD COLUMN network_id  bigint REFERENCES networks(id) ON DELETE SET NULL,  -- created, updated or duplicated
  ADD COLUMN updated_at  timestamptz NOT NULL DEFAULT now();
UPDATE network_submissions SET updated_at = created_at;

-- The queue: one site's submissions of one status, newest first.
CREATE INDEX network_submissions_queue_idx ON network_submissions (site_id, status, created_at DESC, id DESC);
