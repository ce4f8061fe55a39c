// "Verified 3 hours ago from the network's Everflow platform": when a sync last saw
// the offer at its network. The age is counted from the loader's `now`, so the
// server's HTML and the browser's render say the same; the exact UTC time is the title.
import type { OfferDetail } from "#contracts/offers.ts";

const PLATFORM_NAMES: Record<NonNullable<OfferDetail["verification"]>["platform"], string> = {
  everflow: "Everflow platform",
  tune: "TUNE (HasOffers) platform",
  cake: "CAKE platform",
  affise: "Affise platform",
  feed: "offer feed",
};

const UNITS: [string, number][] = [
  ["year", 365 * 86_400_000],
  ["month", 30 * 86_400_000],
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
];

/** "just now", "1 minute ago", "3 hours ago": the largest whole unit of `at` before `now`. */
export function agoText(at: string, now: string): string {
  const ms = Date.parse(now) - Date.parse(at);
  for (const [unit, size] of UNITS) {
    const n = Math.floor(ms / size);
    if (n >= 1) return `${n} ${unit}${n === 1 ? "" : "s"} ago`;
  }
  return "just now";
}

/** "2026-11-22 20:35 UTC" */
const utcText = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

export function Verified({ verification, now }: { verification: OfferDetail["verification"]; now: string }) {
  if (!verification) return null;
  return (
    <p className="mt-3 text-sm text-slate-700" data-testid="offer-verified">
      <span aria-hidden="true" className="mr-1 text-green-700">
        ✓
      </span>
      Verified{" "}
      <time dateTime={verification.at} title={utcText(verification.at)}>
        {agoText(verification.at, now)}
      </time>{" "}
      from the network&apos;s {PLATFORM_NAMES[verification.platform]}
    </p>
  );
}
