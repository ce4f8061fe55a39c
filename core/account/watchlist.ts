// The watchlist (issue #14): the offers and networks an account follows, read with
// their current payout and what changed since the owner last opened the list.
// Changes come from the offer row (its last payout change, migration 0017) and
// from offer_history (status moves recorded by syncs, migration 0014).
import { sql, array, type Database, type Queryable, type SQL } from "#db/client.ts";
import { HttpError, notFound } from "#core/errors.ts";
import { OFFER_CURRENCY } from "#core/offers/columns.ts";
import {
  SIGNED_OUT_WATCH,
  WATCHLIST_LIMIT,
  WATCHLIST_MESSAGES,
  type WatchState,
  type WatchTarget,
  type WatchedNetwork,
  type WatchedOffer,
  type Watchlist,
  type WatchlistItem,
} from "#contracts/watchlist.ts";

const iso = (d: Date | string) => new Date(d).toISOString();
const ISO = (column: string) => sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

type ItemRow = {
  id: string | number;
  offerId: string | number | null;
  networkId: string | number | null;
  createdAt: Date;
  lastSeenAt: Date;
};
const toItem = (r: ItemRow): WatchlistItem => ({
  id: Number(r.id),
  offerId: r.offerId === null ? null : Number(r.offerId),
  networkId: r.networkId === null ? null : Number(r.networkId),
  createdAt: iso(r.createdAt),
  lastSeenAt: iso(r.lastSeenAt),
});
const ITEM_COLUMNS = sql`w.id, w.offer_id AS "offerId", w.network_id AS "networkId",
  w.created_at AS "createdAt", w.last_seen_at AS "lastSeenAt"`;

/** The offers and networks a page shows, whose stars it asks about. */
export type OnScreen = { offerIds?: readonly number[]; networkIds?: readonly number[] };
/** A followed item among those on screen: [item id, offer id, network id]. */
export type FollowedRow = [number | string, number | string | null, number | string | null];

/**
 * The items among `on` that the user `userId` (an expression: a value, or a column of the
 * statement it joins) follows, as one JSON column of FollowedRow; null when nothing is asked.
 */
export function followedColumn(userId: SQL, on: OnScreen): SQL | null {
  const offerIds = on.offerIds ?? [];
  const networkIds = on.networkIds ?? [];
  if (!offerIds.length && !networkIds.length) return null;
  return sql`(SELECT coalesce(json_agg(json_build_array(w.id, w.offer_id, w.network_id)), '[]'::json)
    FROM watchlist_items w WHERE w.user_id = ${userId}
      AND (w.offer_id = ANY (${array(offerIds)}::bigint[]) OR w.network_id = ANY (${array(networkIds)}::bigint[])))`;
}

/** A page's stars from followedColumn's rows: offer or network id → watchlist item id. */
export function watchStateOf(rows: readonly FollowedRow[]): WatchState {
  const state: WatchState = { signedIn: true, offers: {}, networks: {} };
  for (const [id, offerId, networkId] of rows) {
    if (offerId !== null) state.offers[Number(offerId)] = Number(id);
    else if (networkId !== null) state.networks[Number(networkId)] = Number(id);
  }
  return state;
}

/** The payout's last change, when it came after the owner's last visit (see core/offers/changes.ts for the USD/percent rule). */
const MOVED_IN_USD = sql`coalesce(o.payout_usd <> o.previous_payout_usd, false)`;
const PAYOUT_DELTA = sql`(CASE WHEN ${MOVED_IN_USD} THEN o.payout_usd - o.previous_payout_usd
  ELSE o.payout_percent - o.previous_payout_percent END)`;
const PAYOUT_CHANGE_SINCE_VISIT = sql`CASE WHEN o.payout_changed_at > w.last_seen_at AND ${PAYOUT_DELTA} <> 0 THEN json_build_object(
    'at', ${ISO("o.payout_changed_at")},
    'direction', CASE WHEN ${PAYOUT_DELTA} > 0 THEN 'up' ELSE 'down' END,
    'usd', CASE WHEN ${MOVED_IN_USD} THEN abs(o.payout_usd - o.previous_payout_usd)::float8 END,
    'percent', CASE WHEN NOT ${MOVED_IN_USD} THEN abs(o.payout_percent - o.previous_payout_percent)::float8 END)
  END`;

/**
 * A status move after the last visit, from the offer's history: the status last
 * recorded up to the visit against the latest recorded after it. Offers without
 * history from before the visit (never synced) show their current status only.
 */
const OFFER_STATUS_CHANGE = sql`(SELECT CASE WHEN before.status IS DISTINCT FROM after.status
    THEN json_build_object('from', before.status, 'to', after.status, 'at', ${ISO("after.recorded_at")}) END
  FROM (SELECT h.status FROM offer_history h WHERE h.offer_id = o.id AND h.recorded_at <= w.last_seen_at
        ORDER BY h.recorded_at DESC, h.id DESC LIMIT 1) before,
       (SELECT h.status, h.recorded_at FROM offer_history h WHERE h.offer_id = o.id AND h.recorded_at > w.last_seen_at
        ORDER BY h.recorded_at DESC, h.id DESC LIMIT 1) after)`;

/** A network retired by the console after the last visit (networks keep no history, only retired_at). */
const NETWORK_STATUS_CHANGE = sql`CASE WHEN n.status = 'retired' AND n.retired_at > w.last_seen_at
  THEN json_build_object('from', NULL, 'to', 'retired', 'at', ${ISO("n.retired_at")}) END`;

type OfferRow = ItemRow &
  Omit<WatchedOffer, keyof WatchlistItem | "payoutAmount" | "payoutPercent" | "network"> & {
    payoutAmount: string | number | null;
    payoutPercent: string | number | null;
    network: { id: string | number; name: string; slug: string };
  };
type NetworkRow = ItemRow & Omit<WatchedNetwork, keyof WatchlistItem>;

const num = (v: string | number | null) => (v === null ? null : Number(v));

/** Everything followed, newest first, with the current payout and the changes since the last visit. */
async function readList(q: Queryable, userId: number): Promise<Watchlist> {
  const offers = await q.query<OfferRow>(sql`
      SELECT ${ITEM_COLUMNS}, o.name, o.slug, o.status,
        o.payout_amount AS "payoutAmount", o.payout_percent AS "payoutPercent", o.payout_type AS "payoutType",
        ${OFFER_CURRENCY},
        json_build_object('id', n.id, 'name', n.name, 'slug', n.slug) AS network,
        ${PAYOUT_CHANGE_SINCE_VISIT} AS "payoutChange",
        ${OFFER_STATUS_CHANGE} AS "statusChange"
      FROM watchlist_items w
        JOIN offers o ON o.id = w.offer_id
        JOIN networks n ON n.id = o.network_id
        JOIN currencies c ON c.code = o.currency
      WHERE w.user_id = ${userId}
      ORDER BY w.created_at DESC, w.id DESC`);
  const networks = await q.query<NetworkRow>(sql`
      SELECT ${ITEM_COLUMNS}, n.name, n.slug, n.status,
        n.avg_rating::float8 AS rating, n.review_count AS "reviewCount", n.offer_count AS "offerCount",
        ${NETWORK_STATUS_CHANGE} AS "statusChange"
      FROM watchlist_items w JOIN networks n ON n.id = w.network_id
      WHERE w.user_id = ${userId}
      ORDER BY w.created_at DESC, w.id DESC`);
  return {
    offers: offers.map((r) => ({
      ...r,
      ...toItem(r),
      offerId: Number(r.offerId),
      payoutAmount: num(r.payoutAmount),
      payoutPercent: num(r.payoutPercent),
      network: { ...r.network, id: Number(r.network.id) },
    })),
    networks: networks.map((r) => ({ ...r, ...toItem(r), networkId: Number(r.networkId) })),
  };
}

export function createWatchlist(db: Database) {
  /** The target must exist: following an unknown id answers 404 rather than storing a dangling wish. */
  async function assertTargetExists(tx: Queryable, target: WatchTarget) {
    const rows = target.offerId
      ? await tx.query(sql`SELECT 1 FROM offers WHERE id = ${target.offerId}`)
      : await tx.query(sql`SELECT 1 FROM networks WHERE id = ${target.networkId}`);
    if (!rows.length)
      throw notFound(target.offerId ? WATCHLIST_MESSAGES.offerNotFound : WATCHLIST_MESSAGES.networkNotFound);
  }

  const existing = async (tx: Queryable, userId: number, target: WatchTarget) => {
    const rows = await tx.query<ItemRow>(sql`SELECT ${ITEM_COLUMNS} FROM watchlist_items w
      WHERE w.user_id = ${userId} AND ${target.offerId ? sql`w.offer_id = ${target.offerId}` : sql`w.network_id = ${target.networkId}`}`);
    return rows[0] ? toItem(rows[0]) : undefined;
  };

  /** For a page's stars: which of the offers and networks on screen the user follows, in one query. */
  async function followedAmong(userId: number, on: OnScreen): Promise<WatchState> {
    const followed = followedColumn(sql`${userId}`, on);
    if (!followed) return watchStateOf([]);
    const [row] = await db.query<{ followed: FollowedRow[] }>(sql`SELECT ${followed} AS followed`);
    return watchStateOf(row.followed);
  }

  return {
    /** Follows an offer or a network; following again answers the item already there. */
    async follow(userId: number, target: WatchTarget): Promise<{ item: WatchlistItem; created: boolean }> {
      return db.transaction(async (tx) => {
        // One follow at a time per account, so the limit holds under concurrent requests.
        await tx.query(sql`SELECT 1 FROM users WHERE id = ${userId} FOR UPDATE`);
        const found = await existing(tx, userId, target);
        if (found) return { item: found, created: false };
        await assertTargetExists(tx, target);
        const [{ count }] = await tx.query<{ count: number }>(
          sql`SELECT count(*)::int AS count FROM watchlist_items WHERE user_id = ${userId}`,
        );
        if (count >= WATCHLIST_LIMIT) throw new HttpError(400, WATCHLIST_MESSAGES.full);
        const [row] = await tx.query<ItemRow>(sql`INSERT INTO watchlist_items AS w (user_id, offer_id, network_id)
          VALUES (${userId}, ${target.offerId ?? null}, ${target.networkId ?? null}) RETURNING ${ITEM_COLUMNS}`);
        return { item: toItem(row), created: true };
      });
    },

    /** Unfollows one of the owner's items; another account's item is as unknown as a missing one. */
    async unfollow(userId: number, itemId: number): Promise<void> {
      const rows = await db.query(
        sql`DELETE FROM watchlist_items WHERE id = ${itemId} AND user_id = ${userId} RETURNING id`,
      );
      if (!rows.length) throw notFound(WATCHLIST_MESSAGES.itemNotFound);
    },

    /** Unfollows by what is followed (the star's form); nothing to do when it is not followed. */
    async unfollowTarget(userId: number, target: WatchTarget): Promise<void> {
      await db.query(sql`DELETE FROM watchlist_items WHERE user_id = ${userId}
        AND ${target.offerId ? sql`offer_id = ${target.offerId}` : sql`network_id = ${target.networkId}`}`);
    },

    list: (userId: number) => readList(db, userId),

    /**
     * The owner opens the list: what changed since the last visit, then the visit is
     * remembered as of this transaction's start, so a change landing meanwhile still shows next time.
     */
    async visit(userId: number): Promise<Watchlist> {
      return db.transaction(async (tx) => {
        const list = await readList(tx, userId);
        await tx.query(sql`UPDATE watchlist_items SET last_seen_at = now() WHERE user_id = ${userId}`);
        return list;
      });
    },
    /**
     * What a page's stars start from: for nobody signed in the one shared answer (so
     * the anonymous page stays cacheable); in the page signed-in visitors share, none: the
     * browser fills them in (docs/decisions/0029, 0047); else the followed ids among those on screen.
     */
    stateFor(
      user: { id: number } | "shared" | null,
      on: { offerIds?: readonly number[]; networkIds?: readonly number[] },
    ): Promise<WatchState> {
      if (user === "shared") return Promise.resolve({ signedIn: true, offers: {}, networks: {}, personal: true });
      return user ? followedAmong(user.id, on) : Promise.resolve(SIGNED_OUT_WATCH);
    },

    followedAmong,
  };
}
