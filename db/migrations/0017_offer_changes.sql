-- What affiliates see of offer supply (issue #13): the last payout change on the
-- offer row itself, so the search's "Payout increased" view and its marks read
-- one row instead of the offer's history; and products matched across networks
-- by a name stripped of the networks' own notes (docs/decisions/0020).

-- The last change of payout: when, and what it was before. Kept by a trigger, so a
-- sync and a console edit record it alike (and neither has to know).
ALTER TABLE offers
  ADD COLUMN payout_changed_at        timestamptz,
  ADD COLUMN previous_payout_usd      numeric(12,2),
  ADD COLUMN previous_payout_percent  numeric(5,2);

-- A plain row trigger comparing OLD and NEW: a bulk sync pays one comparison per row
-- (the WHEN clause skips the function when nothing moved).
CREATE FUNCTION oa_offer_payout_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.payout_changed_at := now();
  NEW.previous_payout_usd := OLD.payout_usd;
  NEW.previous_payout_percent := OLD.payout_percent;
  RETURN NEW;
END $$;
CREATE TRIGGER offers_payout_change
  BEFORE UPDATE OF payout_usd, payout_percent ON offers
  FOR EACH ROW
  WHEN (OLD.payout_usd IS DISTINCT FROM NEW.payout_usd OR OLD.payout_percent IS DISTINCT FROM NEW.payout_percent)
  EXECUTE FUNCTION oa_offer_payout_change();

-- The two views walk an index, latest change first, and stop after a page: "Updated"
-- the console's offers_updated_idx (0011), "Payout increased" this one.
CREATE INDEX offers_payout_changed_idx ON offers (payout_changed_at DESC, id DESC)
  WHERE status = 'active' AND payout_changed_at IS NOT NULL;

-- A product's name as several networks spell it: without bracketed notes ("[Mobile]",
-- "(SOI)", "(US, CA)"), without trailing geos or payout models after a dash or colon
-- ("- US", "- United Kingdom", ": CPL"; a dash only between spaces, so "Wi-Fi" keeps its "Fi"), without payout models as words ("CPA"), then
-- oa_normalize. A dash suffix that is anything else ("- Free Trial", "- DOI") names a
-- variant of the product and stays.
CREATE FUNCTION oa_product_name(t text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT oa_normalize(regexp_replace(regexp_replace(regexp_replace(
    lower(coalesce(t, '')),
    '\[[^]]*\]|\([^)]*\)', ' ', 'g'),
    '((\s+[-–—|]|:)\s*('
      || '[a-z]{2}|usa|ww|worldwide|global|international|tier ?[123]|eu|latam|dach|nordics|benelux|emea|apac'
      || '|united states|united kingdom|great britain|england|canada|australia|new zealand|ireland|germany'
      || '|austria|switzerland|france|belgium|netherlands|spain|portugal|italy|poland|sweden|norway|denmark'
      || '|finland|brazil|mexico|argentina|chile|colombia|india|japan|south africa|cp[a-z]'
      || ')(\s*[/,&+]\s*('
      || '[a-z]{2}|usa|ww|eu|united states|united kingdom|canada|australia|new zealand|ireland|germany'
      || '|austria|switzerland|france|spain|italy'
      || '))*\s*)+$', ''),
    '\mcp[alsicmor]\M', ' ', 'g')) $$;

-- product_key keeps its shape (name key | landing domain) with the new name key;
-- product_name is the name key alone, for listings that have no landing domain
-- (matched by overlapping geos instead, core/supply/matching.ts). One ALTER: one rewrite.
ALTER TABLE offers
  DROP COLUMN product_key,
  ADD COLUMN product_name text GENERATED ALWAYS AS (oa_product_name(name)) STORED,
  ADD COLUMN product_key text GENERATED ALWAYS AS (oa_product_name(name) || '|' || coalesce(lower(landing_domain), '')) STORED;
CREATE INDEX offers_product_idx ON offers (product_key);
CREATE INDEX offers_product_name_idx ON offers (product_name);
