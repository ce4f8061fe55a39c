// Writes the reference lists into their tables so that offers can reference them.
import { sql, type Queryable } from "#db/client.ts";
import { COUNTRIES } from "./countries.ts";
import { CURRENCIES, USD_RATES } from "./currencies.ts";

export async function syncReferenceData(db: Queryable): Promise<void> {
  const countries = COUNTRIES.map((c, i) => ({ ...c, sort_order: i }));
  await db.query(sql`
    INSERT INTO countries (code, code3, iso_numeric, name, languages, sort_order)
    SELECT code, code3, iso_numeric, name, ARRAY(SELECT jsonb_array_elements_text(languages)), sort_order
    FROM jsonb_to_recordset(${JSON.stringify(countries)}::jsonb)
      AS c(code text, code3 text, iso_numeric text, name text, languages jsonb, sort_order int)
    ON CONFLICT (code) DO UPDATE SET code3 = EXCLUDED.code3, iso_numeric = EXCLUDED.iso_numeric,
      name = EXCLUDED.name, languages = EXCLUDED.languages, sort_order = EXCLUDED.sort_order`);
  const currencies = Object.values(CURRENCIES).map((c) => ({ ...c, usd_rate: USD_RATES[c.code] ?? null }));
  await db.query(sql`
    INSERT INTO currencies (code, symbol, name, symbol_native, decimal_digits, rounding, name_plural, usd_rate)
    SELECT * FROM jsonb_to_recordset(${JSON.stringify(currencies)}::jsonb)
      AS c(code text, symbol text, name text, symbol_native text, decimal_digits smallint,
           rounding numeric, name_plural text, usd_rate numeric)
    ON CONFLICT (code) DO UPDATE SET symbol = EXCLUDED.symbol, name = EXCLUDED.name,
      symbol_native = EXCLUDED.symbol_native, decimal_digits = EXCLUDED.decimal_digits,
      rounding = EXCLUDED.rounding, name_plural = EXCLUDED.name_plural, usd_rate = EXCLUDED.usd_rate`);
}
