// Countries (spec §3): ISO codes, numeric code and languages from the
// world-countries package, United States first, then by name. Pickers add the
// empty "Select Country" option in front (see COUNTRY_OPTIONS).
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

/** The list as the spec shows it: an empty 'Select Country' option, then the United States. */
export const COUNTRY_OPTIONS: readonly Country[] = [
  { code: "", code3: "", iso_numeric: "", name: "Select Country", languages: [] },
  ...COUNTRIES,
];

const byCode = new Map(COUNTRIES.map((c) => [c.code, c]));
export const countryByCode = (code: string) => byCode.get(code.toUpperCase());
