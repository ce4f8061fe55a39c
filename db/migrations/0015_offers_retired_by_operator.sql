-- An offer the operator retired stays retired whatever its source says; only the
-- console's restore brings it back (a sync's own retirement is undone by the source).
ALTER TABLE offers ADD COLUMN retired_by_operator boolean NOT NULL DEFAULT false;
