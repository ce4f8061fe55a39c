// The watchlist (issue #14): the session API (follow, idempotence, list with the
// current payout and the changes since the last visit, unfollow, 401/400/404, the
// limit), the page that counts as the visit, the stars' form post without
// JavaScript, and the stars' state on the search page without making it personal.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { AUTH_COOKIE } from "#core/auth/sessions.ts";
import { WATCHLIST_LIMIT, WATCHLIST_MESSAGES, type Watchlist, type WatchlistItem } from "#contracts/watchlist.ts";
import type { OfferSearchResult } from "#contracts/offers.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRoles } from "../helpers/staff.ts";

let t: TestApp;
type Account = Awaited<ReturnType<typeof signInWithRoles>>;
let alice: Account;
let bob: Account;
let offer: { id: number; name: string; networkId: number };
let otherOffer: { id: number };

beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 2, offers: 10, trafficSources: 1 } });
  alice = await signInWithRoles(t, [], "Alice Affiliate");
  bob = await signInWithRoles(t, [], "Bob Affiliate");
  const res = await t.app.inject({ method: "POST", url: "/api/offers/search", payload: {} });
  const [first, second] = res.json<OfferSearchResult>().offers;
  offer = { id: first.id, name: first.name, networkId: first.networkId };
  otherOffer = { id: second.id };
});
afterAll(() => t?.close());

const cookieOf = (account: Account) => `${AUTH_COOKIE}=${account.headers.authorization.replace("Bearer ", "")}`;
const follow = (account: Account | null, payload: unknown) =>
  t.app.inject({
    method: "POST",
    url: "/api/account/watchlist",
    headers: account?.headers,
    payload: payload as object,
  });
const list = async (account: Account) => {
  const res = await t.app.inject({ url: "/api/account/watchlist", headers: account.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Watchlist>();
};
const unfollow = (account: Account | null, id: number | string) =>
  t.app.inject({ method: "DELETE", url: `/api/account/watchlist/${id}`, headers: account?.headers });
/** As if the owner last opened the list an hour ago, so what happens now is "since the last visit". */
const visitedAnHourAgo = (account: Account) =>
  t.db.query(
    sql`UPDATE watchlist_items SET last_seen_at = now() - interval '1 hour' WHERE user_id = ${account.user.id}`,
  );

describe("the watchlist API", () => {
  it("answers 401 { message } without a session", async () => {
    for (const res of [
      await t.app.inject({ url: "/api/account/watchlist" }),
      await follow(null, { offerId: offer.id }),
      await unfollow(null, 1),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: expect.any(String) });
    }
  });

  it("follows an offer once: a second follow answers the same item with 200", async () => {
    const first = await follow(alice, { offerId: offer.id });
    expect(first.statusCode, first.body).toBe(201);
    const { item } = first.json<{ item: WatchlistItem }>();
    expect(item).toMatchObject({ offerId: offer.id, networkId: null });
    const again = await follow(alice, { offerId: String(offer.id) });
    expect(again.statusCode).toBe(200);
    expect(again.json<{ item: WatchlistItem }>().item.id).toBe(item.id);
    const { offers } = await list(alice);
    expect(offers.map((o) => o.offerId)).toEqual([offer.id]);
  });

  it("follows a network and lists it with its rating, offer count and status", async () => {
    const res = await follow(alice, { networkId: offer.networkId });
    expect(res.statusCode, res.body).toBe(201);
    const { networks } = await list(alice);
    expect(networks).toHaveLength(1);
    const [db] = await t.db.query<{ name: string; offerCount: number }>(
      sql`SELECT name, offer_count AS "offerCount" FROM networks WHERE id = ${offer.networkId}`,
    );
    expect(networks[0]).toMatchObject({
      networkId: offer.networkId,
      name: db.name,
      offerCount: db.offerCount,
      status: "active",
      rating: expect.any(Number),
      statusChange: null,
    });
  });

  it("refuses bodies naming neither or both, or ids that are not ids, with 400 { message }", async () => {
    for (const body of [
      {},
      { offerId: offer.id, networkId: offer.networkId },
      { offerId: "abc" },
      { offerId: -3 },
      { offerId: 1.5 },
      { networkId: "9".repeat(30) },
      [offer.id],
    ]) {
      const res = await follow(alice, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message, JSON.stringify(body)).toEqual(expect.any(String));
    }
    expect((await follow(alice, {})).json().message).toBe(WATCHLIST_MESSAGES.oneTarget);
  });

  it("answers 404 for an offer or network that does not exist", async () => {
    const offerRes = await follow(alice, { offerId: 999_999_999 });
    expect(offerRes.statusCode).toBe(404);
    expect(offerRes.json()).toEqual({ message: WATCHLIST_MESSAGES.offerNotFound });
    const networkRes = await follow(alice, { networkId: 999_999_999 });
    expect(networkRes.statusCode).toBe(404);
    expect(networkRes.json()).toEqual({ message: WATCHLIST_MESSAGES.networkNotFound });
  });

  it("lists the current payout and a payout change since the last visit, with its amount", async () => {
    await visitedAnHourAgo(alice);
    const [before] = await t.db.query<{ amount: number | null }>(
      sql`SELECT payout_amount::float8 AS amount FROM offers WHERE id = ${offer.id}`,
    );
    // A console edit or a sync writes the offer row; the trigger of migration 0017 records the change.
    await t.db.query(sql`UPDATE offers SET payout_usd = payout_usd + 7.5,
      payout_amount = CASE WHEN payout_amount IS NULL THEN NULL ELSE payout_amount + 7.5 END WHERE id = ${offer.id}`);
    const [watched] = (await list(alice)).offers;
    expect(watched.payoutAmount).toBe(before.amount === null ? null : before.amount + 7.5);
    expect(watched.payoutChange).toMatchObject({ direction: "up", usd: 7.5 });
    expect(Date.parse(watched.payoutChange!.at)).toBeGreaterThan(Date.now() - 60_000);
    // Reading through the API is not a visit: the change is still there.
    expect((await list(alice)).offers[0].payoutChange).not.toBeNull();
  });

  it("shows a status change recorded in the offer's history, and a retired offer as retired", async () => {
    await t.db
      .query(sql`INSERT INTO offer_history (offer_id, recorded_at, payout_amount, payout_percent, currency, payout_type, payout_usd, status)
      SELECT id, now() - interval '2 hours', payout_amount, payout_percent, currency, payout_type, payout_usd, 'active' FROM offers WHERE id = ${offer.id}`);
    await t.db.query(sql`UPDATE offers SET status = 'retired' WHERE id = ${offer.id}`);
    await t.db
      .query(sql`INSERT INTO offer_history (offer_id, payout_amount, payout_percent, currency, payout_type, payout_usd, status)
      SELECT id, payout_amount, payout_percent, currency, payout_type, payout_usd, status FROM offers WHERE id = ${offer.id}`);
    const [watched] = (await list(alice)).offers;
    expect(watched.status).toBe("retired");
    expect(watched.statusChange).toMatchObject({ from: "active", to: "retired" });
  });

  it("the page shows the changes once: opening it is the visit", async () => {
    const page = await t.app.inject({ url: "/account/watchlist", headers: { cookie: cookieOf(alice) } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Payout up $7.50 on");
    expect(page.body).toContain("Status changed from Active to Retired");
    expect(page.headers["cache-control"] ?? "").not.toMatch(/public/);
    const [watched] = (await list(alice)).offers;
    expect(watched.payoutChange).toBeNull();
    expect(watched.statusChange).toBeNull();
    const again = await t.app.inject({ url: "/account/watchlist", headers: { cookie: cookieOf(alice) } });
    expect(again.body).not.toContain("Payout up $7.50");
    expect(again.body).toContain("Retired"); // still marked, no longer a change
    await t.db.query(sql`UPDATE offers SET status = 'active' WHERE id = ${offer.id}`);
  });

  it("sends a signed-out visitor to the login, coming back to the page", async () => {
    const res = await t.app.inject({ url: "/account/watchlist" });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("/login?redirectTo=/account/watchlist");
  });

  it("unfollows: another account's item is 404, one's own 204, then 404", async () => {
    const { offers } = await list(alice);
    const id = offers[0].id;
    expect((await unfollow(bob, id)).statusCode).toBe(404);
    expect((await unfollow(alice, "not-an-id")).statusCode).toBe(404);
    expect((await unfollow(alice, "0")).statusCode).toBe(404);
    const gone = await unfollow(alice, id);
    expect(gone.statusCode).toBe(204);
    expect((await unfollow(alice, id)).statusCode).toBe(404);
    expect((await list(alice)).offers).toEqual([]);
    expect((await list(bob)).offers).toEqual([]);
  });

  it(`holds at most ${WATCHLIST_LIMIT} items per account, and says so`, async () => {
    const carol = await signInWithRoles(t, [], "Carol Collector");
    await t.db.query(sql`INSERT INTO offers (slug, network_id, name, payout_type, payout_amount, payout_usd)
      SELECT 'watch-limit-' || g, ${offer.networkId}, 'Watch Limit ' || g, 'CPA', 1, 1 FROM generate_series(1, ${WATCHLIST_LIMIT}) g`);
    await t.db.query(sql`INSERT INTO watchlist_items (user_id, offer_id)
      SELECT ${carol.user.id}, id FROM offers WHERE slug LIKE 'watch-limit-%'`);
    const full = await follow(carol, { offerId: offer.id });
    expect(full.statusCode).toBe(400);
    expect(full.json()).toEqual({ message: WATCHLIST_MESSAGES.full });
    // Following what is already followed still answers the item.
    const [some] = await t.db.query<{ offerId: number }>(
      sql`SELECT offer_id::int AS "offerId" FROM watchlist_items WHERE user_id = ${carol.user.id} LIMIT 1`,
    );
    expect((await follow(carol, { offerId: some.offerId })).statusCode).toBe(200);
  });
});

describe("the stars", () => {
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const post = (account: Account | null, fields: Record<string, string>) =>
    t.app.inject({
      method: "POST",
      url: "/account/watchlist",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        ...(account ? { cookie: cookieOf(account) } : {}),
      },
      payload: form(fields),
    });

  it("follow and unfollow as a plain form post, going back to the star's page (a local one only)", async () => {
    const back = `/?search=x&page=1`;
    const followed = await post(bob, { intent: "follow", offerId: String(otherOffer.id), redirectTo: back });
    expect(followed.statusCode).toBe(302);
    expect(followed.headers.location).toBe(back);
    expect((await list(bob)).offers.map((o) => o.offerId)).toEqual([otherOffer.id]);

    const evil = await post(bob, { intent: "unfollow", offerId: String(otherOffer.id), redirectTo: "//evil.example" });
    expect(String(evil.headers.location ?? "")).not.toContain("evil");
    expect((await list(bob)).offers).toEqual([]);

    const refused = await post(bob, { intent: "follow", offerId: "999999999", redirectTo: back });
    expect(refused.statusCode).toBe(404);
    expect(refused.body).toContain(WATCHLIST_MESSAGES.offerNotFound);
  });

  it("signed out, the form post goes to the login and back to the star's page", async () => {
    const res = await post(null, { intent: "follow", offerId: String(offer.id), redirectTo: "/networks" });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("/login?redirectTo=/networks");
  });

  it("the search page carries the user's stars; signed out it stays the same for everyone", async () => {
    await follow(bob, { offerId: otherOffer.id });
    const mine = await t.app.inject({ url: "/", headers: { cookie: cookieOf(bob) } });
    expect(mine.statusCode).toBe(200);
    expect(mine.body.match(/aria-pressed="true"/g)).toHaveLength(1);
    expect(mine.body).toMatch(/aria-label="Unfollow [^"]+"/);

    const anonymous = await t.app.inject({ url: "/" });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.headers["set-cookie"]).toBeUndefined();
    expect(anonymous.body).not.toContain("aria-pressed");
    // Signed out, rows carry no star (the offer page offers "log in to follow").
    expect(anonymous.body).not.toContain('data-testid="watch-star"');
  });

  it("the offer and network pages carry their own star", async () => {
    const offerPage = await t.app.inject({ url: `/offer/${otherOffer.id}`, headers: { cookie: cookieOf(bob) } });
    const location = offerPage.headers.location;
    const page = location ? await t.app.inject({ url: location, headers: { cookie: cookieOf(bob) } }) : offerPage;
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/aria-pressed="true" aria-label="Unfollow /);

    const net = await t.app.inject({ url: `/network/${offer.networkId}`, headers: { cookie: cookieOf(alice) } });
    const netPage = net.headers.location
      ? await t.app.inject({ url: net.headers.location, headers: { cookie: cookieOf(alice) } })
      : net;
    expect(netPage.statusCode).toBe(200);
    // Alice follows this network (above).
    expect(netPage.body).toMatch(/aria-pressed="true" aria-label="Unfollow /);
  });
});
