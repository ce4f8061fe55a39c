// Saved searches API (issue #14): create, list, read, rename, change the alert's
// frequency, delete; 401 without a session, 400 { message } on bad input, the
// per-user limit, and another user's searches answering 404.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { SAVED_SEARCHES_MAX, type SavedSearch } from "#contracts/saved-searches.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRoles } from "../helpers/staff.ts";

let t: TestApp;
let alice: Awaited<ReturnType<typeof signInWithRoles>>;
let bob: Awaited<ReturnType<typeof signInWithRoles>>;

beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 2, offers: 10, trafficSources: 1 } });
  alice = await signInWithRoles(t, [], "Alice Affiliate");
  bob = await signInWithRoles(t, [], "Bob Affiliate");
});
afterAll(async () => {
  await t?.close();
});

type Account = typeof alice;
const call = (
  account: Account | null,
  method: "GET" | "POST" | "PATCH" | "DELETE" | "PUT",
  url: string,
  payload?: unknown,
) =>
  t.app.inject({
    method,
    url,
    headers: account?.headers ?? {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

describe("saved searches", () => {
  it("answers 401 on every route without a session", async () => {
    for (const [method, url] of [
      ["GET", "/api/account/saved-searches"],
      ["POST", "/api/account/saved-searches"],
      ["GET", "/api/account/saved-searches/1"],
      ["PATCH", "/api/account/saved-searches/1"],
      ["DELETE", "/api/account/saved-searches/1"],
      ["GET", "/api/account/watchlist-alert"],
      ["PUT", "/api/account/watchlist-alert"],
    ] as const) {
      const res = await call(
        null,
        method,
        url,
        method === "POST" || method === "PATCH" || method === "PUT" ? {} : undefined,
      );
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json()).toHaveProperty("message");
    }
  });

  it("saves the search payload with a name and frequency, lists, renames and deletes it", async () => {
    const created = await call(alice, "POST", "/api/account/saved-searches", {
      name: "  Health US  ",
      alertFrequency: "daily",
      query: "Keto",
      countries: ["US"],
      selectedTab: "newest",
      page: 3,
    });
    expect(created.statusCode, created.body).toBe(201);
    const saved = created.json<SavedSearch>();
    expect(saved).toMatchObject({ name: "Health US", alertFrequency: "daily" });
    // The search as the search API reads it (normalised query, defaults filled), without the page.
    expect(saved.search).toMatchObject({ query: "keto", countries: ["US"], selectedTab: "newest", networks: [] });
    expect(saved.search).not.toHaveProperty("page");

    const list = await call(alice, "GET", "/api/account/saved-searches");
    expect(list.json<{ savedSearches: SavedSearch[] }>().savedSearches.map((s) => s.id)).toEqual([saved.id]);

    const renamed = await call(alice, "PATCH", `/api/account/saved-searches/${saved.id}`, { name: "Keto in the US" });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<SavedSearch>()).toMatchObject({ name: "Keto in the US", alertFrequency: "daily" });
    const quiet = await call(alice, "PATCH", `/api/account/saved-searches/${saved.id}`, { alertFrequency: "none" });
    expect(quiet.json<SavedSearch>()).toMatchObject({ name: "Keto in the US", alertFrequency: "none" });

    expect((await call(alice, "DELETE", `/api/account/saved-searches/${saved.id}`)).statusCode).toBe(204);
    expect((await call(alice, "GET", `/api/account/saved-searches/${saved.id}`)).statusCode).toBe(404);
    expect((await call(alice, "GET", "/api/account/saved-searches")).json()).toEqual({ savedSearches: [] });
  });

  it("refuses bad input with 400 { message }, using the search payload's own rules", async () => {
    const bad: [unknown, RegExp][] = [
      [{ query: "x" }, /name/],
      [{ name: "   " }, /name must not be empty/],
      [{ name: "x".repeat(101) }, /at most 100/],
      [{ name: "ok", alertFrequency: "hourly" }, /alertFrequency must be one of none, instant, daily, weekly/],
      [{ name: "ok", selectedTab: "nope" }, /selectedTab must be one of/],
      [{ name: "ok", countries: ["not a country"] }, /countries/],
      [{ name: "ok", query: "q".repeat(201) }, /query must be at most 200/],
      [["a list"], /JSON object/],
    ];
    for (const [payload, message] of bad) {
      const res = await call(alice, "POST", "/api/account/saved-searches", payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(message);
    }
    const [{ id }] = await t.db.query<{ id: number }>(sql`
      INSERT INTO saved_searches (user_id, name, payload, unsubscribe_token)
      VALUES (${alice.user.id}, 'Mine', '{}'::jsonb, 'token-for-the-patch-test') RETURNING id`);
    const noChange = await call(alice, "PATCH", `/api/account/saved-searches/${id}`, {});
    expect(noChange.statusCode).toBe(400);
    expect(noChange.json<{ message: string }>().message).toMatch(/name or an alertFrequency/);
    expect((await call(alice, "PATCH", "/api/account/saved-searches/abc", { name: "x" })).statusCode).toBe(404);
    await t.db.query(sql`DELETE FROM saved_searches WHERE id = ${id}`);
  });

  it("keeps each user's searches to themselves: another user's id answers 404 and is left alone", async () => {
    const mine = (await call(alice, "POST", "/api/account/saved-searches", { name: "Alice's" })).json<SavedSearch>();
    for (const [method, payload] of [["GET"], ["PATCH", { name: "Bob was here" }], ["DELETE"]] as const) {
      const res = await call(bob, method, `/api/account/saved-searches/${mine.id}`, payload);
      expect(res.statusCode, method).toBe(404);
      expect(res.json()).toEqual({ message: "Saved search not found" });
    }
    expect((await call(bob, "GET", "/api/account/saved-searches")).json()).toEqual({ savedSearches: [] });
    expect((await call(alice, "GET", `/api/account/saved-searches/${mine.id}`)).json<SavedSearch>().name).toBe(
      "Alice's",
    );
    await call(alice, "DELETE", `/api/account/saved-searches/${mine.id}`);
  });

  it(`keeps at most ${SAVED_SEARCHES_MAX} saved searches per user`, async () => {
    for (let i = 0; i < SAVED_SEARCHES_MAX; i++) {
      const res = await call(bob, "POST", "/api/account/saved-searches", { name: `Search ${i}` });
      expect(res.statusCode, res.body).toBe(201);
    }
    const over = await call(bob, "POST", "/api/account/saved-searches", { name: "One too many" });
    expect(over.statusCode).toBe(400);
    expect(over.json<{ message: string }>().message).toMatch(/at most 50 saved searches/);
    // Another user's limit is their own.
    expect((await call(alice, "POST", "/api/account/saved-searches", { name: "Still fine" })).statusCode).toBe(201);
  });

  it("sets the watchlist's alert frequency", async () => {
    expect((await call(alice, "GET", "/api/account/watchlist-alert")).json()).toEqual({ alertFrequency: "none" });
    const set = await call(alice, "PUT", "/api/account/watchlist-alert", { alertFrequency: "weekly" });
    expect(set.statusCode, set.body).toBe(200);
    expect((await call(alice, "GET", "/api/account/watchlist-alert")).json()).toEqual({ alertFrequency: "weekly" });
    expect((await call(bob, "GET", "/api/account/watchlist-alert")).json()).toEqual({ alertFrequency: "none" });
    const bad = await call(alice, "PUT", "/api/account/watchlist-alert", { alertFrequency: "sometimes" });
    expect(bad.statusCode).toBe(400);
  });
});
