-- Review moderation (docs/product.md, issue #12): a review is published (shown
-- and counted), held (waiting for a moderator, with the rule that held it) or
-- hidden (removed by a moderator, with the reason). The old 'pending' and
-- 'rejected' values map onto held and hidden.
ALTER TABLE reviews DROP CONSTRAINT reviews_status_check;
UPDATE reviews SET status = 'held' WHERE status = 'pending';
UPDATE reviews SET status = 'hidden' WHERE status = 'rejected';
ALTER TABLE reviews ADD CONSTRAINT reviews_status_check CHECK (status IN ('published', 'held', 'hidden'));
ALTER TABLE reviews
  ADD COLUMN hold_reason   text,
  ADD COLUMN hidden_reason text,
  ADD COLUMN moderated_by  bigint REFERENCES users(id) ON DELETE SET NULL,
  ADD COLUMN moderated_at  timestamptz;
-- The held and hidden queues are small; published reviews need no entry.
CREATE INDEX reviews_moderation_idx ON reviews (status, created_at DESC) WHERE status <> 'published';

-- A reader's report of a review: one per reader per review.
CREATE TABLE review_reports (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  review_id   bigint NOT NULL REFERENCES reviews(id) ON DELETE CASCADE,
  user_id     bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  reason      text NOT NULL,
  comment     text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (review_id, user_id)
);
CREATE INDEX review_reports_recent_idx ON review_reports (created_at DESC);
