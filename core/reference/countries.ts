// Countries (docs/product.md §3): ISO codes, numeric code and languages from the
// world-countries package, United States first, then by name.
import worldCountries from "world-countries/countries.json" with { type: "json" };

export type Country = {
  code: string;
  code3: string;
  iso_numeric: string;
  name: string;
  languages: string[];
};

type WorldCountry = {
  cca2: string;
  cca3: string;
  ccn3: string;
  name: { common: string };
  languages?: Record<string, string>;
};

export const COUNTRIES: readonly Country[] = (worldCountries as unknown as WorldCountry[])
  .map((c) => ({
    code: c.cca2,
    code3: c.cca3,
    iso_numeric: c.ccn3,
    name: c.name.common,
    languages: Object.keys(c.languages ?? {}),
  }))
  .sort((a, b) => (a.code === "US" ? -1 : b.code === "US" ? 1 : a.name.localeCompare(b.name, "en")));
