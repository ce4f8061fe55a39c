// Display helpers for offer tables: the same text on the server and in the browser
// (no locale or time-zone dependent formatting, so hydration matches).
import type { OfferListItem } from "#contracts/offers.ts";

const PAYOUT_TYPE_LABELS: Record<string, string> = {
  CPA: "CPA",
  CPL: "CPL",
  CPS: "CPS",
  CPI: "CPI",
  CPC: "CPC",
  "pay-per-call": "Pay Per Call",
  revshare: "RevShare",
};

export const payoutTypeLabel = (t: string) => PAYOUT_TYPE_LABELS[t] ?? t;

/** Up to `max` country codes, then "+N". */
export function geosText(countries: readonly string[], max = 4): string {
  if (!countries.length) return "—";
  return countries.slice(0, max).join(", ") + (countries.length > max ? ` +${countries.length - max}` : "");
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** "Jun 17, 2026" in UTC. */
export function dateText(iso: string): string {
  const d = new Date(iso);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
}

export const categoriesText = (o: Pick<OfferListItem, "categories">) =>
  o.categories.length ? o.categories.join(", ") : "—";
