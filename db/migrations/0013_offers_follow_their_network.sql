-- A retired network takes its listed offers out with it, and brings back exactly
-- those when it is restored; offers retired on their own stay retired.
ALTER TABLE offers ADD COLUMN retired_with_network boolean NOT NULL DEFAULT false;
