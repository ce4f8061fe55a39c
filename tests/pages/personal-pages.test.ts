// Logged-in pages (issue #16, docs/decisions/0029): a signed-in browser that runs the
// page's script gets the page every signed-in visitor shares, rendered once with no
// user, and fetches its own name and stars from /api/account/personal. Nothing one
// user owns enters that copy; a browser without the script still gets its own page.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AUTH_COOKIE } from "#core/auth/sessions.ts";
import {
  PERSONAL_VERSION_COOKIE,
  PERSONAL_VERSION_MAX_AGE_SECONDS,
  SCRIPT_COOKIE,
  type PersonalParts,
} from "#contracts/personal.ts";
import type { OfferSearchResult } from "#contracts/offers.ts";
import { AD_IMPRESSIONS_PATH } from "#contracts/ads.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRoles } from "../helpers/staff.ts";
import { sql } from "#db/client.ts";

let t: TestApp;
type Account = Awaited<ReturnType<typeof signInWithRoles>>;
let alice: Account;
let bob: Account;
let offers: { id: number; networkId: number }[];

beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 3, offers: 30, trafficSources: 1 }, env: { PAGE_CACHE_SECONDS: "60" } });
  alice = await signInWithRoles(t, [], "Alice Affiliate");
  bob = await signInWithRoles(t, [], "Bob Affiliate");
  offers = (await t.app.inject({ method: "POST", url: "/api/offers/search", payload: {} })).json<OfferSearchResult>()
    .offers;
  // Alice follows the first offer and its network, Bob the second offer.
  for (const [account, payload] of [
    [alice, { offerId: offers[0].id }],
    [alice, { networkId: offers[0].networkId }],
    [bob, { offerId: offers[1].id }],
  ] as const) {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/account/watchlist",
      headers: account.headers,
      payload,
    });
    expect(res.statusCode, res.body).toBe(201);
  }
});
afterAll(() => t?.close());

const tokenOf = (account: Account) => account.headers.authorization.replace("Bearer ", "");
/** What a browser that ran the page's script sends. */
const browser = (account: Account | null, script = true) => ({
  cookie: [account && `${AUTH_COOKIE}=${tokenOf(account)}`, script && `${SCRIPT_COOKIE}=1`].filter(Boolean).join("; "),
});
const page = (url: string, account: Account | null, script = true) =>
  t.app.inject({ url, headers: browser(account, script) });
const personal = (query: string, headers: Record<string, string> = {}) =>
  t.app.inject({ url: `/api/account/personal?${query}`, headers });
/** The page as rendered, less its CSP nonce (a shared copy carries none): the same for everyone who shares it. */
function withoutNonce(res: { body: string; headers: Record<string, unknown> }) {
  const nonce = /'nonce-([^']+)'/.exec(String(res.headers["content-security-policy"]))?.[1];
  return nonce ? res.body.replaceAll(` nonce="${nonce}"`, "").replaceAll(nonce, "") : res.body;
}
/**
 * Until a read of the account's parts runs no statement: its copy is kept. (On PostgreSQL a
 * notification of the sign-in's own writes may still be on its way, and drop the first copy.)
 */
const untilKept = (account: Account) =>
  vi.waitFor(
    async () => {
      const statements = vi.spyOn(t.db, "query");
      try {
        expect((await personal("offerIds=1", account.headers)).statusCode).toBe(200);
        expect(statements).not.toHaveBeenCalled();
      } finally {
        statements.mockRestore();
      }
    },
    { timeout: 3000, interval: 20 },
  );
const personalTraces = (account: Account) => [account.user.name, account.email];

describe("the page signed-in visitors share", () => {
  it("answers two users' views of one search page from one rendering holding neither's name, email or stars", async () => {
    const first = await page("/?page=1", alice);
    const second = await page("/?page=1", bob);
    expect(first.statusCode).toBe(200);
    expect(first.headers["x-page-cache"]).toBeUndefined();
    expect(second.headers["x-page-cache"]).toBe("hit");
    expect(withoutNonce(second)).toBe(withoutNonce(first));
    for (const trace of [...personalTraces(alice), ...personalTraces(bob)]) expect(first.body).not.toContain(trace);
    // Signed in (a logout button, the rows' stars), but no star is anyone's.
    expect(first.body).toContain(">Logout</button>");
    expect(first.body).toContain('data-testid="watch-star"');
    expect(first.body).not.toContain('aria-pressed="true"');
    // The loader data leaves the stars to the browser's personal answer, and lists no ids for it.
    expect(first.body).toContain('\\"personal\\"');
    expect(first.body).not.toContain('\\"ask\\"');

    // The anonymous copy of the same address is another one.
    const anonymous = await page("/?page=1", null);
    expect(anonymous.body).not.toContain(">Logout</button>");
    expect(anonymous.body).not.toContain('data-testid="watch-star"');
  });

  it("shares the offer page too, and client navigations' data", async () => {
    await page(`/offer/${offers[0].id}`, bob);
    const res = await page(`/offer/${offers[0].id}`, alice);
    const url = res.headers.location ?? `/offer/${offers[0].id}`;
    await page(url, bob);
    const shared = await page(url, alice);
    expect(shared.statusCode).toBe(200);
    expect(shared.headers["x-page-cache"]).toBe("hit");
    expect(shared.body).not.toContain(alice.user.name);
    expect(shared.body).not.toContain('aria-pressed="true"');

    await page("/_.data?page=2", bob);
    const data = await page("/_.data?page=2", alice);
    expect(data.headers["x-page-cache"]).toBe("hit");
    expect(data.body).not.toContain(bob.user.name);
  });

  it("a browser without the script gets its own page with its name and stars, never a shared one", async () => {
    for (let i = 0; i < 2; i++) {
      const mine = await page("/?page=1", alice, false);
      expect(mine.headers["x-page-cache"]).toBeUndefined();
      expect(mine.body).toContain(alice.user.name);
      expect(mine.body).toMatch(/aria-pressed="true" aria-label="Unfollow /);
      expect(mine.body).not.toContain(bob.user.name);
    }
  });

  it("pages that need their user are rendered for it: the account page, the login page, a network's reviews", async () => {
    const account = await page("/account", alice);
    expect(account.statusCode).toBe(200);
    expect(account.body).toContain(alice.email);
    expect((await page("/account", bob)).body).not.toContain(alice.email);
    const login = await page("/login", alice);
    expect([login.statusCode, login.headers.location]).toEqual([302, "/"]);
    const net = await page(`/network/${offers[0].networkId}`, alice);
    const netPage = net.headers.location ? await page(net.headers.location, alice) : net;
    expect(netPage.statusCode).toBe(200);
    expect(netPage.body).toContain(alice.user.name);
    expect(netPage.body).toMatch(/aria-pressed="true" aria-label="Unfollow /);
  });

  it("a forged or ended session sees nobody's parts: the anonymous copy, with its cookies cleared; its personal request signs it out", async () => {
    await page("/?page=3", null);
    await page("/?page=3", alice);
    const forged = { cookie: `${AUTH_COOKIE}=forged; ${SCRIPT_COOKIE}=1; ${PERSONAL_VERSION_COOKIE}=x` };
    const shared = await t.app.inject({ url: "/?page=3", headers: forged });
    expect(shared.headers["x-page-cache"]).toBe("hit");
    expect(shared.body).not.toContain(">Logout</button>");
    for (const trace of [...personalTraces(alice), ...personalTraces(bob)]) expect(shared.body).not.toContain(trace);
    const cleared = [shared.headers["set-cookie"]].flat().map(String);
    expect(cleared).toEqual([
      expect.stringMatching(new RegExp(`^${AUTH_COOKIE.replaceAll(".", "\\.")}=;.*Max-Age=0`)),
      expect.stringMatching(new RegExp(`^${PERSONAL_VERSION_COOKIE}=;.*Max-Age=0`)),
    ]);
    // The personal answer its browser kept goes too (it may be a shared computer).
    expect(shared.headers["clear-site-data"]).toBe('"cache"');
    const signOut = await personal("offerIds=1", forged);
    expect(signOut.statusCode).toBe(401);
    expect(signOut.headers["clear-site-data"]).toBe('"cache"');
    expect(String(signOut.headers["set-cookie"])).toMatch(
      new RegExp(`^${AUTH_COOKIE.replaceAll(".", "\\.")}=;.*Max-Age=0`),
    );
    const noScript = await t.app.inject({ url: "/?page=3", headers: { cookie: `${AUTH_COOKIE}=forged` } });
    expect(noScript.headers["x-page-cache"]).toBe("hit");
    expect(noScript.body).not.toContain(">Logout</button>");
  });
});

describe("the version of a browser's personal parts (docs/decisions/0047)", () => {
  /** The version a signed-in page tells the browser, if it tells one. */
  const told = (res: { headers: Record<string, unknown> }) =>
    [res.headers["set-cookie"]]
      .flat()
      .map(String)
      .find((c) => c.startsWith(`${PERSONAL_VERSION_COOKIE}=`))
      ?.split(";")[0]
      .slice(PERSONAL_VERSION_COOKIE.length + 1);
  const withVersion = (account: Account, version: string) => ({
    cookie: `${browser(account).cookie}; ${PERSONAL_VERSION_COOKIE}=${version}`,
  });

  it("each signed-in page tells it, the same on every instance; the answer under it holds every follow and the browser keeps it", async () => {
    const version = told(await page("/?page=1", alice));
    expect(version).toMatch(/^[\w-]{22}$/);
    // A page of the same session with that version tells nothing new; data requests tell it too.
    expect(told(await t.app.inject({ url: "/faq", headers: withVersion(alice, version!) }))).toBeUndefined();
    expect(told(await page("/_.data?page=2", alice))).toBe(version);
    // The ad impressions every page view reports write nothing of the user's: the version holds.
    const report = await t.app.inject({
      method: "POST",
      url: AD_IMPRESSIONS_PATH,
      headers: withVersion(alice, version!),
      payload: { ads: [1] },
    });
    expect(report.statusCode).toBe(204);
    expect(report.headers["set-cookie"]).toBeUndefined();
    expect(told(await page("/?page=1", bob))).not.toBe(version);
    const other = await createTestApp({ db: t.db, env: { PAGE_CACHE_SECONDS: "60" } });
    try {
      expect(told(await other.app.inject({ url: "/?page=1", headers: browser(alice) }))).toBe(version);
    } finally {
      await other.close();
    }

    const kept = await personal(`v=${version}`, withVersion(alice, version!));
    expect(kept.statusCode).toBe(200);
    expect(kept.headers["cache-control"]).toBe(`private, max-age=${PERSONAL_VERSION_MAX_AGE_SECONDS}, immutable`);
    // Every follow, none asked for by id.
    expect(kept.json<PersonalParts>().watch).toEqual({
      offers: { [offers[0].id]: expect.any(Number) },
      networks: { [offers[0].networkId]: expect.any(Number) },
    });
    // An address of another version is answered as the parts are now, and kept by nobody.
    const unknown = await personal("v=other", withVersion(alice, version!));
    expect(unknown.headers["cache-control"]).toBe("private, no-store");
    expect(unknown.json<PersonalParts>().user.name).toBe(alice.user.name);
    for (const bad of ["v=", "v=a%20b", `v=${"x".repeat(65)}`]) {
      const res = await personal(bad, alice.headers);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toEqual({ message: expect.any(String) });
    }
    expect((await personal(`v=${version}`)).statusCode).toBe(401);
  });

  it("changes with a follow from another device, told by the browser's next page", async () => {
    const frank = await signInWithRoles(t, [], "Frank Affiliate");
    const before = told(await page("/?page=1", frank))!;
    // The phone follows an offer; the laptop's next page tells a new version, whose answer holds it.
    const followed = await t.app.inject({
      method: "POST",
      url: "/api/account/watchlist",
      headers: frank.headers,
      payload: { offerId: offers[5].id },
    });
    expect(followed.statusCode).toBe(201);
    const next = async () => told(await t.app.inject({ url: "/?page=1", headers: withVersion(frank, before) }));
    // PostgreSQL tells the instance a moment after the commit.
    const after = t.db.kind === "pglite" ? await next() : await vi.waitFor(async () => (await next()) ?? expect.fail());
    expect(after).toMatch(/^[\w-]{22}$/);
    expect(after).not.toBe(before);
    const parts = (await personal(`v=${after}`, withVersion(frank, after!))).json<PersonalParts>();
    expect(parts.watch.offers).toEqual({ [offers[5].id]: followed.json<{ item: { id: number } }>().item.id });
  });
});

describe("GET /api/account/personal", () => {
  it("answers each user their own name and follows among the ids asked, never stored by a cache", async () => {
    const query = `offerIds=${offers[0].id},${offers[1].id}&networkIds=${offers[0].networkId}`;
    const forAlice = await personal(query, browser(alice));
    expect(forAlice.statusCode).toBe(200);
    expect(forAlice.headers["cache-control"]).toBe("private, no-store");
    const a = forAlice.json<PersonalParts>();
    expect(a.user).toEqual({ name: alice.user.name, email: alice.email, scope: [] });
    expect(Object.keys(a.watch.offers)).toEqual([String(offers[0].id)]);
    expect(Object.keys(a.watch.networks)).toEqual([String(offers[0].networkId)]);

    const b = (await personal(query, bob.headers)).json<PersonalParts>();
    expect(b.user.name).toBe(bob.user.name);
    expect(Object.keys(b.watch.offers)).toEqual([String(offers[1].id)]);
    expect(b.watch.networks).toEqual({});
  });

  it("answers 401 signed out and 400 { message } to ids it cannot read, without echoing them", async () => {
    const out = await personal("offerIds=1");
    expect(out.statusCode).toBe(401);
    expect(out.json()).toEqual({ message: expect.any(String) });
    const bads = ["offerIds=1,<script>", "networkIds=-1", "offerIds=1,,2", "offerIds=1,", "offerIds=,1", "offerIds=01"];
    for (const bad of [...bads, `offerIds=${Array(201).fill(7).join(",")}`]) {
      const res = await personal(bad, alice.headers);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toEqual({ message: expect.any(String) });
      expect(res.body).not.toContain("<script>");
    }
    expect((await personal("", alice.headers)).json<PersonalParts>().watch).toEqual({ offers: {}, networks: {} });
  });

  it("keeps each session's parts: every signed-in page view sends this request, and after the first it reads nothing", async () => {
    const query = `offerIds=${offers[0].id},${offers[1].id}&networkIds=${offers[0].networkId}`;
    await personal(query, alice.headers); // touches the session if it was idle, so the count below is the steady one
    await untilKept(alice);
    const statements = vi.spyOn(t.db, "query");
    try {
      const res = await personal(`offerIds=${offers[0].id}`, alice.headers);
      expect(res.statusCode).toBe(200);
      expect(Object.keys(res.json<PersonalParts>().watch.offers)).toEqual([String(offers[0].id)]);
      expect(res.json<PersonalParts>().watch.networks).toEqual({});
      expect(statements).toHaveBeenCalledTimes(0);
    } finally {
      statements.mockRestore();
    }
  });

  it("answers after a follow, an unfollow, a profile change or a logout as the database now says, whoever wrote it", async () => {
    const carol = await signInWithRoles(t, [], "Carol Affiliate");
    const query = `offerIds=${offers[2].id}&networkIds=${offers[2].networkId}`;
    const parts = async () => (await personal(query, carol.headers)).json<PersonalParts>();
    expect((await parts()).watch).toEqual({ offers: {}, networks: {} });
    await parts(); // a second read, from the kept copy where there is one

    const followed = await t.app.inject({
      method: "POST",
      url: "/api/account/watchlist",
      headers: carol.headers,
      payload: { offerId: offers[2].id },
    });
    const item = followed.json<{ item: { id: number } }>().item.id;
    expect((await parts()).watch.offers).toEqual({ [offers[2].id]: item });

    // Another writer than the API: the console, a script, an offer's deletion cascading. The
    // embedded database tells before the statement returns; PostgreSQL a moment after the commit.
    const soon = (check: () => Promise<void>) =>
      t.db.kind === "pglite" ? check() : vi.waitFor(check, { timeout: 2000, interval: 20 });
    await t.db.query(sql`UPDATE users SET name = 'Carol Renamed' WHERE id = ${carol.user.id}`);
    await soon(async () => expect((await parts()).user.name).toBe("Carol Renamed"));
    await t.db.query(sql`DELETE FROM watchlist_items WHERE id = ${item}`);
    await soon(async () => expect((await parts()).watch.offers).toEqual({}));

    const out = await t.app.inject({ method: "POST", url: "/api/auth/logout", headers: carol.headers });
    expect(out.statusCode).toBeLessThan(300);
    expect((await personal(query, carol.headers)).statusCode).toBe(401);
  });

  it("answers a browser after its own write as the database now says, on any instance, before the database's notification arrives", async () => {
    const erin = await signInWithRoles(t, [], "Erin Affiliate");
    const cookie = `${AUTH_COOKIE}=${tokenOf(erin)}; ${SCRIPT_COOKIE}=1`;
    const query = `offerIds=${offers[3].id}`;
    // A second instance on the same database that never hears a notification: the moment between
    // a commit and its notification, held open.
    const deaf = await createTestApp({ db: { ...t.db, listen: async () => ({ live: true }) } });
    try {
      const partsOn = async (app: TestApp["app"], headers: Record<string, string>) => {
        const res = await app.inject({ url: `/api/account/personal?${query}`, headers });
        expect(res.statusCode, res.body).toBe(200);
        return res.json<PersonalParts>().watch.offers;
      };
      expect(await partsOn(deaf.app, { cookie })).toEqual({}); // now kept there

      // The browser follows through the first instance; its answer carries a new personal version.
      const follow = await t.app.inject({
        method: "POST",
        url: "/api/account/watchlist",
        headers: { cookie },
        payload: { offerId: offers[3].id },
      });
      expect(follow.statusCode, follow.body).toBe(201);
      const version = [follow.headers["set-cookie"]].flat().find((c) => String(c).startsWith("oa_pv="));
      expect(version).toMatch(/^oa_pv=[\w-]{12}; Path=\/; SameSite=Lax$/);
      const item = follow.json<{ item: { id: number } }>().item.id;

      // Without it, the deaf instance's copy answers, as it still would for another browser.
      expect(await partsOn(deaf.app, { cookie })).toEqual({});
      // With it, that copy is not this browser's answer.
      const withVersion = `${cookie}; ${String(version).split(";")[0]}`;
      expect(await partsOn(deaf.app, { cookie: withVersion })).toEqual({ [offers[3].id]: item });

      // A write through an instance drops the session's copy there, whatever carries the session.
      const unfollow = await deaf.app.inject({
        method: "DELETE",
        url: `/api/account/watchlist/${item}`,
        headers: erin.headers,
      });
      expect(unfollow.statusCode, unfollow.body).toBeLessThan(300);
      expect(await partsOn(deaf.app, { cookie: withVersion })).toEqual({});

      // Reads and anonymous writes set no version.
      expect(
        (await t.app.inject({ url: `/api/account/personal?${query}`, headers: { cookie } })).headers["set-cookie"],
      ).toBeUndefined();
      const anonymous = await t.app.inject({ method: "POST", url: "/api/account/watchlist", payload: { offerId: 1 } });
      expect(anonymous.statusCode).toBe(401);
      expect(String(anonymous.headers["set-cookie"] ?? "")).not.toContain("oa_pv=");
    } finally {
      await deaf.close();
    }
  });

  it("never answers for a session past its expiry, even from a kept copy", async () => {
    const dave = await signInWithRoles(t, [], "Dave Affiliate");
    await untilKept(dave);
    const statements = vi.spyOn(t.db, "query");
    vi.useFakeTimers({ now: Date.now() + 31 * 24 * 3600 * 1000, toFake: ["Date"] });
    try {
      // The copy is past the session's expiry: the database answers, by its own clock (the
      // embedded one runs on this process's, which the test moved; PostgreSQL's has not moved).
      const res = await personal("offerIds=1", dave.headers);
      expect(statements).toHaveBeenCalled();
      expect(res.statusCode).toBe(t.db.kind === "pglite" ? 401 : 200);
    } finally {
      vi.useRealTimers();
      statements.mockRestore();
    }
  });
});
