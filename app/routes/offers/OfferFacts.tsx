// Shared pieces of the offer page and the compare page.
import { formatPayout } from "#contracts/money.ts";
import type { OfferDetail } from "#contracts/offers.ts";
import { JoinButton } from "#app/ui/JoinButton.tsx";
import { payoutTypeLabel } from "./format";

export const payoutText = (o: Pick<OfferDetail, "payoutAmount" | "payoutPercent" | "currency" | "payoutType">) => {
  // Hybrid revshare offers pay an amount plus a share: show both.
  const base = formatPayout(o);
  return o.payoutAmount !== null && o.payoutPercent !== null
    ? `${base} + ${Number(o.payoutPercent.toFixed(2))}%`
    : base;
};

export const typeText = (o: Pick<OfferDetail, "payoutType">) => payoutTypeLabel(o.payoutType);

export const listText = (items: readonly string[], empty = "—") => (items.length ? items.join(", ") : empty);

/** The offer's network's Join button (the shared one), named, since a compare table has several. */
export function OfferJoinButton({
  network,
  className = "btn-primary",
}: {
  network: OfferDetail["network"];
  className?: string;
}) {
  return (
    <JoinButton
      networkId={network.id}
      href={network.joiningLink ?? network.website}
      networkName={network.name}
      className={`${className} inline-block text-center`}
    >
      Join {network.name}
    </JoinButton>
  );
}
