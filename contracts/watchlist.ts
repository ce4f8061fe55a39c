// The watchlist (issue #14): what an affiliate follows, an offer or a network, and
// what the browser and API clients send and get back. One schema for the JSON API
// and the star's form post, so both refuse the same bodies with the same words.
import { z } from "zod";
import type { MoneyCurrency } from "./money.ts";
import type { PayoutChange } from "./offers.ts";
import { integerField, integerInput } from "./validation.ts";

/** How many items one account may follow: plenty for a working list, not a copy of the catalogue. */
export const WATCHLIST_LIMIT = 500;

export const WATCHLIST_MESSAGES = {
  oneTarget: "Send either offerId or networkId, not both and not neither",
  offerNotFound: "Offer not found",
  networkNotFound: "Network not found",
  itemNotFound: "Watchlist item not found",
  full: `Your watchlist is full: it holds at most ${WATCHLIST_LIMIT} items. Unfollow some to follow more.`,
} as const;

const blankToUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);
const targetId = (field: string) =>
  z.preprocess(
    blankToUndefined,
    integerField(field, 1).refine(Number.isSafeInteger, `${field} must be the id of an existing item`).optional(),
  );

/** What is followed: exactly one of an offer and a network. */
export const watchTarget = z
  .object({ offerId: targetId("offerId"), networkId: targetId("networkId") })
  .refine((t) => (t.offerId === undefined) !== (t.networkId === undefined), WATCHLIST_MESSAGES.oneTarget)
  .transform((t): WatchTarget => (t.offerId !== undefined ? { offerId: t.offerId } : { networkId: t.networkId! }));

export type WatchTarget = { offerId: number; networkId?: undefined } | { networkId: number; offerId?: undefined };

/** A watchlist item's id from a path segment; anything but a positive safe integer names no item. */
export function watchItemId(segment: unknown): number | undefined {
  const n = integerInput(segment);
  return typeof n === "number" && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

export type WatchlistItem = {
  id: number;
  offerId: number | null;
  networkId: number | null;
  createdAt: string;
  lastSeenAt: string;
};

/** A change of status since the last visit: what it was then (null: not recorded) and when it moved. */
export type StatusChange = { from: string | null; to: string; at: string };

export type WatchedOffer = WatchlistItem & {
  offerId: number;
  name: string;
  slug: string;
  status: string;
  payoutAmount: number | null;
  payoutPercent: number | null;
  payoutType: string;
  currency: MoneyCurrency;
  network: { id: number; name: string; slug: string };
  /** The payout's last change when it came after the last visit. */
  payoutChange: PayoutChange | null;
  statusChange: StatusChange | null;
};

export type WatchedNetwork = WatchlistItem & {
  networkId: number;
  name: string;
  slug: string;
  status: string;
  rating: number;
  reviewCount: number;
  offerCount: number;
  statusChange: StatusChange | null;
};

export type Watchlist = { offers: WatchedOffer[]; networks: WatchedNetwork[] };

/**
 * What a page tells its stars: whether anyone is signed in and, for a signed-in
 * user, the followed ids among those on screen (id → watchlist item id). The same
 * for every visitor who is signed out, so anonymous pages stay cacheable. In the
 * page every signed-in visitor shares, `personal` says the user's follows come from
 * the answer the browser keeps (contracts/personal.ts, docs/decisions/0047).
 */
export type WatchState = {
  signedIn: boolean;
  offers: Record<number, number>;
  networks: Record<number, number>;
  personal?: true;
};

export const SIGNED_OUT_WATCH: WatchState = { signedIn: false, offers: {}, networks: {} };
