-- The operator console's audit log: who did what to which record, with the
-- values before and after. Rows are only ever added.
CREATE TABLE audit_log (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id       text NOT NULL REFERENCES sites(id),
  actor_id      bigint REFERENCES users(id) ON DELETE SET NULL,
  action        text NOT NULL,          -- e.g. submission.approve, review.hide
  subject_type  text NOT NULL,          -- e.g. network_submission, review
  subject_id    bigint,
  before        jsonb,
  after         jsonb,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_recent_idx ON audit_log (site_id, created_at DESC, id DESC);
CREATE INDEX audit_log_subject_idx ON audit_log (subject_type, subject_id);
