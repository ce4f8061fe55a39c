// Currencies (docs/product.md §3: about 150, keyed by code): symbol, name, symbol_native,
// decimal_digits, rounding, code, name_plural. Which currencies: the ISO 4217 currencies in use
// today, as the runtime's CLDR data lists them (Intl.supportedValuesOf), less the IMF's units of
// account. What each says: the currency-list package (English) where it has the currency, with
// its cash rounding (CHF 0.05); the others from the same CLDR data through Intl.
import currencyList from "currency-list/lib/currency-list.json" with { type: "json" };
import worldCountries from "world-countries/countries.json" with { type: "json" };

export type Currency = {
  code: string;
  symbol: string;
  name: string;
  symbol_native: string;
  decimal_digits: number;
  rounding: number;
  name_plural: string;
};

/** Special drawing rights and the SUCRE: units of account between states, never a payout's currency. */
const UNITS_OF_ACCOUNT = new Set(["XDR", "XSU"]);

const LISTED = (currencyList as unknown as { en: Record<string, Currency> }).en;

/** A country that pays in the currency, whose likely locale writes its native symbol. */
const HOME_REGION = new Map<string, string>();
for (const c of worldCountries as unknown as { cca2: string; currencies?: Record<string, unknown> }[])
  for (const code of Object.keys(c.currencies ?? {})) if (!HOME_REGION.has(code)) HOME_REGION.set(code, c.cca2);

const currencyPart = (locale: string, code: string, display: "symbol" | "name") =>
  new Intl.NumberFormat(locale, { style: "currency", currency: code, currencyDisplay: display })
    .formatToParts(2)
    .find((p) => p.type === "currency")?.value ?? code;

function fromCldr(code: string): Currency {
  const region = HOME_REGION.get(code);
  const home = region ? new Intl.Locale("und", { region }).maximize().baseName : "en";
  return {
    code,
    symbol: currencyPart("en", code, "symbol"),
    name: new Intl.DisplayNames("en", { type: "currency" }).of(code) ?? code,
    symbol_native: currencyPart(home, code, "symbol"),
    decimal_digits:
      new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions().maximumFractionDigits ?? 2,
    rounding: 0,
    name_plural: currencyPart("en", code, "name"),
  };
}

export const CURRENCIES: Readonly<Record<string, Currency>> = Object.fromEntries(
  Intl.supportedValuesOf("currency")
    .filter((code) => !UNITS_OF_ACCOUNT.has(code))
    .map((code) => [code, LISTED[code] ?? fromCldr(code)]),
);

// Reference rates (USD per unit) used only to rank payouts in different
// currencies against each other; display always uses the offer's own currency.
export const USD_RATES: Readonly<Record<string, number>> = {
  USD: 1,
  EUR: 1.08,
  GBP: 1.27,
  CAD: 0.73,
  AUD: 0.66,
  CHF: 1.13,
  JPY: 0.0067,
  INR: 0.012,
  BRL: 0.18,
  MXN: 0.055,
  SEK: 0.095,
  NOK: 0.093,
  DKK: 0.145,
  PLN: 0.25,
  NZD: 0.6,
  ZAR: 0.055,
  KWD: 3.25,
  BHD: 2.65,
};

/**
 * An amount in USD at the reference rate, for ranking (offers.payout_usd): cents
 * times the rate in millionths, rounded as PostgreSQL's round(numeric, 2) would
 * (integer arithmetic: no binary floating-point drift). Null without a rate.
 */
export function usdValue(amount: number, currency: string): number | null {
  const rate = USD_RATES[currency];
  if (rate === undefined) return null;
  const cents = Math.round(amount * 100);
  const micros = Math.round(rate * 1_000_000);
  return Math.round((cents * micros) / 1_000_000) / 100;
}
