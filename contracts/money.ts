// Payouts as affiliates read them: the currency's symbol and decimal digits
// (0, 2 or 3), cash rounding where the currency has one (CHF to 0.05), and
// percentages for revenue-share and CPS offers.
import { formatNumber } from "./numbers.ts";

export type MoneyCurrency = { code: string; symbol: string; decimalDigits: number; rounding: number };

export function formatMoney(amount: number, currency: MoneyCurrency): string {
  const step = currency.rounding > 0 ? currency.rounding : 0;
  const rounded = step ? Math.round(amount / step) * step : amount;
  const digits = currency.decimalDigits;
  const number = formatNumber(rounded, digits);
  // Symbols that are letters (CHF, kr) read better with a space.
  return /^[\p{L}]+$/u.test(currency.symbol) ? `${currency.symbol} ${number}` : `${currency.symbol}${number}`;
}

export function formatPayout(offer: {
  payoutAmount: number | null;
  payoutPercent: number | null;
  currency: MoneyCurrency;
}): string {
  if (offer.payoutAmount !== null && offer.payoutAmount !== undefined)
    return formatMoney(offer.payoutAmount, offer.currency);
  if (offer.payoutPercent !== null && offer.payoutPercent !== undefined)
    return `${Number(offer.payoutPercent.toFixed(2))}%`;
  return "—";
}
