// The alert mail: one digest per user and frequency, a section per alert, a line
// per change (what changed, by how much, the offer's link). Plain text: it reads
// the same in every client and carries nothing to escape.
import { offerSearchToUrl, offerUrl } from "#contracts/offers.ts";
import type { AlertFrequency, SavedSearchPayload } from "#contracts/saved-searches.ts";
import type { MailMessage } from "#core/mail/mailer.ts";
import type { AlertChange } from "./changes.ts";

export type DigestSection = {
  title: string;
  changes: AlertChange[];
  /** More changes matched than a section lists: the link shows them all. */
  more: boolean;
  /** Where to see everything (the saved search, the watchlist). */
  moreUrl: string;
  /** Stops this alert alone. */
  stopUrl: string;
};

const FREQUENCY_WORDS: Record<Exclude<AlertFrequency, "none">, string> = {
  instant: "alert",
  daily: "daily digest",
  weekly: "weekly digest",
};

function money(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

/** The payout as the offer page shows it: an amount, a percent, or both. */
function payoutText(amount: number | null, percent: number | null, currency: string | null): string {
  const parts = [
    amount !== null && currency ? money(amount, currency) : null,
    percent !== null ? `${percent}%` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(" + ") : "payout not given";
}

/** "Payout up by $2.00" when one amount moved in one currency, else "Payout changed". */
function payoutMove(c: AlertChange): string {
  if (
    c.amount !== null &&
    c.previousAmount !== null &&
    c.currency === c.previousCurrency &&
    c.amount !== c.previousAmount
  )
    return `Payout ${c.amount > c.previousAmount ? "up" : "down"} by ${money(Math.abs(c.amount - c.previousAmount), c.currency!)}`;
  if (
    c.percent !== null &&
    c.previousPercent !== null &&
    c.amount === c.previousAmount &&
    c.percent !== c.previousPercent
  ) {
    const points = Math.round(Math.abs(c.percent - c.previousPercent) * 100) / 100;
    return `Payout ${c.percent > c.previousPercent ? "up" : "down"} by ${points} percentage points`;
  }
  return "Payout changed";
}

export function changeLine(c: AlertChange, publicUrl: string): string {
  if (c.kind === "networkRetired") return `- Network retired: ${c.networkName} no longer lists offers here`;
  const offer = `${c.offerName} (${c.networkName})`;
  const link = `  ${publicUrl}${offerUrl({ id: c.offerId!, slug: c.offerSlug! })}`;
  const now = `${payoutText(c.amount, c.percent, c.currency)} ${c.payoutType ?? ""}`.trim();
  if (c.kind === "new") return `- New offer: ${offer}, ${now}\n${link}`;
  if (c.kind === "retired") return `- Offer retired: ${offer}\n${link}`;
  const before = payoutText(c.previousAmount, c.previousPercent, c.previousCurrency);
  return `- ${payoutMove(c)}: ${offer}, ${before} -> ${now}\n${link}`;
}

/** The link that opens a saved search on the site. */
export const searchLink = (publicUrl: string, search: SavedSearchPayload) =>
  `${publicUrl}/?${offerSearchToUrl({ ...search, page: 1 })}`;

export function digestMail(d: {
  to: string;
  frequency: Exclude<AlertFrequency, "none">;
  sections: DigestSection[];
  publicUrl: string;
  unsubscribeUrl: string;
}): MailMessage {
  const count = d.sections.reduce((n, s) => n + s.changes.length, 0);
  const body = d.sections.map((s) =>
    [
      s.title,
      ...s.changes.map((c) => changeLine(c, d.publicUrl)),
      ...(s.more ? [`- More changes matched; see them all: ${s.moreUrl}`] : []),
      `Stop this alert: ${s.stopUrl}`,
    ].join("\n"),
  );
  return {
    to: d.to,
    subject: `OfferAtlas ${FREQUENCY_WORDS[d.frequency]}: ${count} ${count === 1 ? "change" : "changes"}`,
    text: [
      ...body,
      `Manage your alerts: ${d.publicUrl}/account/searches`,
      `Stop all these e-mails: ${d.unsubscribeUrl}`,
    ].join("\n\n"),
    // RFC 2369 and RFC 8058: mail clients offer a one-click "Unsubscribe" that POSTs to the URL.
    headers: {
      "List-Unsubscribe": `<${d.unsubscribeUrl}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}
