// Currencies (docs/product.md §3): symbol, name, symbol_native, decimal_digits, rounding,
// code, name_plural, from the currency-list package (English names).
import currencyList from "currency-list/lib/currency-list.json" with { type: "json" };

export type Currency = {
  code: string;
  symbol: string;
  name: string;
  symbol_native: string;
  decimal_digits: number;
  rounding: number;
  name_plural: string;
};

export const CURRENCIES: Readonly<Record<string, Currency>> = (
  currencyList as unknown as { en: Record<string, Currency> }
).en;

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
