// Shared pieces of the offer page and the compare page.
import { formatPayout } from "#contracts/money.ts";
import type { OfferDetail } from "#core/offers/detail.ts";
import { payoutTypeLabel } from "./format";

export const payoutText = (o: Pick<OfferDetail, "payoutAmount" | "payoutPercent" | "currency" | "payoutType">) => {
  // Hybrid revshare offers pay an amount plus a share: show both.
  const base = formatPayout(o);
  return o.payoutAmount !== null && o.payoutPercent !== null ? `${base} + ${Number(o.payoutPercent.toFixed(2))}%` : base;
};

export const typeText = (o: Pick<OfferDetail, "payoutType">) => payoutTypeLabel(o.payoutType);

export const listText = (items: readonly string[], empty = "—") => (items.length ? items.join(", ") : empty);

/** The network's Join button: the joining link for this site; a click is also recorded (spec §7 join call). */
export function JoinButton({ network, siteId, className = "btn-primary" }: { network: OfferDetail["network"]; siteId: string; className?: string }) {
  const href = network.joiningLink ?? network.website;
  if (!href) return null;
  return (
    <a
      href={href}
      target="_blank"
      rel="nofollow sponsored noopener noreferrer"
      className={`${className} inline-block text-center`}
      onClick={() => {
        void fetch(`/api/networks/${network.id}/join?site=${encodeURIComponent(siteId)}`, { keepalive: true, headers: { accept: "application/json" } }).catch(() => {});
      }}
    >
      Join {network.name}
    </a>
  );
}
