-- The console's inbox: advertise requests and contact messages get a status, a
-- note and the person handling them; updated_at detects concurrent edits.
ALTER TABLE advertisement_requests
  ADD COLUMN status      text NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'in_progress', 'done')),
  ADD COLUMN note        text NOT NULL DEFAULT '',
  ADD COLUMN handled_by  bigint REFERENCES users(id) ON DELETE SET NULL,
  ADD COLUMN updated_at  timestamptz NOT NULL DEFAULT now();
ALTER TABLE contact_messages
  ADD COLUMN status      text NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'in_progress', 'done')),
  ADD COLUMN note        text NOT NULL DEFAULT '',
  ADD COLUMN handled_by  bigint REFERENCES users(id) ON DELETE SET NULL,
  ADD COLUMN updated_at  timestamptz NOT NULL DEFAULT now();
CREATE INDEX advertisement_requests_inbox_idx ON advertisement_requests (site_id, status, created_at DESC);
CREATE INDEX contact_messages_inbox_idx ON contact_messages (site_id, status, created_at DESC);
