-- Offer slugs become unique across the directory: a bare slug (GET /api/offers/{slug},
-- /offer/{slug}) named "the most popular listing" of several offers, so the API could answer
-- another offer than the page with that slug. Writers now take free slugs (core/offers/slugs.ts).
--
-- Existing duplicates, deterministically: the listing a bare slug answered until now (active
-- first, then the most popular, then the lowest id) keeps its slug, so old bare-slug links still
-- name the same offer; the others get the next free -2, -3, … in that same order. Offer addresses
-- carry the id (/offer/{id}/{slug}), so a renamed offer's old address answers 301 to its new one.
DO $$
DECLARE
  dup record;
  n integer;
BEGIN
  FOR dup IN
    SELECT id, slug, rank
    FROM (
      SELECT id, slug,
        row_number() OVER (PARTITION BY slug ORDER BY (status = 'active') DESC, popularity DESC, id) AS rank
      FROM offers
    ) ranked
    WHERE rank > 1
    ORDER BY slug, rank
  LOOP
    n := dup.rank;
    WHILE EXISTS (SELECT 1 FROM offers WHERE slug = dup.slug || '-' || n) LOOP
      n := n + 1;
    END LOOP;
    UPDATE offers SET slug = dup.slug || '-' || n WHERE id = dup.id;
  END LOOP;
END $$;

CREATE UNIQUE INDEX offers_slug_key ON offers (slug);
-- Both are implied by the unique slug now.
DROP INDEX offers_slug_idx;
ALTER TABLE offers DROP CONSTRAINT offers_network_id_slug_key;
