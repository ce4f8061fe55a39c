// Network reviews API (docs/product.md §3, §7): sign-in, validation, one review per user
// per network, the network's average kept exact, even under concurrent writes.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import type { SessionUser } from "#contracts/auth.ts";
import type { NetworkSummary } from "#contracts/networks.ts";
import type { ReviewPage } from "#contracts/reviews.ts";
import { createReviewService } from "#core/reviews/reviews.ts";
import { createAntibot } from "#core/antibot/recaptcha.ts";
import { createRateLimiter } from "#core/rate-limit/limiter.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
let ipCounter = 0;
const PASSWORD = "Plenty-of-Entropy-2009!";
const COMMENT = "Paid on time every month, helpful affiliate manager.";

beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 12, offers: 100, trafficSources: 2 } });
});
afterAll(() => t?.close());

/** A fresh account and its Bearer token; each from its own address so sign-up limits stay out of the way. */
async function signIn(app: TestApp = t, name = "Jane Reviewer") {
  const remoteAddress = `10.2.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
  const email = `r${crypto.randomBytes(5).toString("hex")}@example.com`;
  const reg = await app.app.inject({
    method: "POST",
    url: "/api/auth/register/",
    remoteAddress,
    payload: { name, email, password: PASSWORD, confirmPassword: PASSWORD },
  });
  expect(reg.statusCode, reg.body).toBe(201);
  const login = await app.app.inject({
    method: "POST",
    url: "/api/auth/login",
    remoteAddress,
    payload: { email, password: PASSWORD },
  });
  expect(login.statusCode, login.body).toBe(200);
  const { token, user } = login.json<{ token: string; user: SessionUser }>();
  // Established accounts: these tests are about publishing and counting, not the burst hold rule
  // (tests/api/admin-reviews.test.ts).
  await app.db.query(sql`UPDATE users SET created_at = now() - interval '30 days' WHERE id = ${user.id}`);
  return { token, userId: user.id, headers: { authorization: `Bearer ${token}` } };
}

const networkIds = async () =>
  (await t.db.query<{ id: number }>(sql`SELECT id FROM networks ORDER BY id`)).map((r) => r.id);

const post = (networkId: number | string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "POST", url: `/api/networks/${networkId}/reviews`, headers, payload: payload as object });

const standing = async (id: number) =>
  (
    await t.db.query<{ avg_rating: number; review_count: number }>(
      sql`SELECT avg_rating, review_count FROM networks WHERE id = ${id}`,
    )
  )[0];

describe("POST /api/networks/{networkId}/reviews", () => {
  it("answers 401 to a visitor who is not signed in, or whose token is unknown", async () => {
    const [id] = await networkIds();
    const res = await post(id, { site: "offeratlas", comment: COMMENT, rating: 5, "g-recaptcha-response": "" });
    expect(res.statusCode).toBe(401);
    expect(typeof res.json().message).toBe("string");
    expect((await post(id, { comment: COMMENT, rating: 5 }, { authorization: "Bearer nonsense" })).statusCode).toBe(
      401,
    );
    expect(await standing(id)).toEqual({ avg_rating: 0, review_count: 0 });
  });

  it("refuses ratings outside 1–5 and comments outside their bounds with 400 { message }", async () => {
    const [id] = await networkIds();
    const { headers } = await signIn();
    const cases: [unknown, string][] = [
      [{ rating: 0, comment: COMMENT }, "Rating must be greater than or equal to 1"],
      [{ rating: 6, comment: COMMENT }, "Rating must be less than or equal to 5"],
      [{ rating: 2.5, comment: COMMENT }, "Rating must be an integer"],
      [{ rating: "five", comment: COMMENT }, "Rating must be an integer"],
      [{ comment: COMMENT }, "Rating cannot be blank"],
      [{ rating: 4 }, "Comment cannot be blank"],
      [{ rating: 4, comment: "   " }, "Comment cannot be blank"],
      [{ rating: 4, comment: "Too short" }, "Comment must be at least 20 characters long"],
      [{ rating: 4, comment: "x".repeat(2001) }, "Comment must be at most 2000 characters long"],
    ];
    for (const [payload, message] of cases) {
      const res = await post(id, { site: "offeratlas", ...(payload as object) }, headers);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 60)).toBe(400);
      expect(res.json()).toEqual({ message });
    }
    expect(await standing(id)).toEqual({ avg_rating: 0, review_count: 0 });
  });

  it("takes a rating sent as text only as plain decimal digits", async () => {
    const [, , , id] = await networkIds();
    const { headers } = await signIn();
    for (const rating of ["0x5", "5e0", " 5", "5 ", "Infinity", "5.0", "+5", "0b101", "５", "   "]) {
      const res = await post(id, { site: "offeratlas", rating, comment: COMMENT }, headers);
      expect(res.statusCode, JSON.stringify(rating)).toBe(400);
      expect(res.json(), JSON.stringify(rating)).toEqual({ message: "Rating must be an integer" });
    }
    expect((await post(id, { rating: "-1", comment: COMMENT }, headers)).json()).toEqual({
      message: "Rating must be greater than or equal to 1",
    });
    expect((await post(id, { rating: "", comment: COMMENT }, headers)).json()).toEqual({
      message: "Rating cannot be blank",
    });
    expect(await standing(id)).toEqual({ avg_rating: 0, review_count: 0 });
    const ok = await post(id, { site: "offeratlas", rating: "5", comment: COMMENT }, headers);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().review.rating).toBe(5);
  });

  it("answers 404 for an unknown network", async () => {
    const { headers } = await signIn();
    for (const id of ["999999", "abc"]) {
      const res = await post(id, { rating: 4, comment: COMMENT }, headers);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: "Network not found" });
    }
  });

  it("creates a review, updates the network's average and count, and a second one edits the first", async () => {
    const [, id] = await networkIds();
    const a = await signIn(t, "Alice Smith");
    const b = await signIn(t, "Bob Jones");
    const first = await post(
      id,
      { site: "offeratlas", rating: 5, comment: COMMENT, "g-recaptcha-response": "" },
      a.headers,
    );
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      created: true,
      avgRating: 5,
      reviewCount: 1,
      review: { rating: 5, comment: COMMENT, author: "Alice S.", networkId: id },
    });
    const second = await post(id, { rating: 2, comment: "Late payments and no answer from support." }, b.headers);
    expect(second.json()).toMatchObject({ created: true, avgRating: 3.5, reviewCount: 2 });
    // Alice changes her mind: her review is edited, not duplicated.
    const edit = await post(id, { rating: 4, comment: "Still good, but payments were late once." }, a.headers);
    expect(edit.statusCode).toBe(200);
    expect(edit.json()).toMatchObject({
      created: false,
      avgRating: 3,
      reviewCount: 2,
      review: { id: first.json().review.id, rating: 4 },
    });
    expect(await standing(id)).toEqual({ avg_rating: 3, review_count: 2 });
    const rows = await t.db.query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM reviews WHERE network_id = ${id} AND user_id = ${a.userId}`,
    );
    expect(rows[0].n).toBe(1);
    // The listing shows the new standing too.
    const listed = (await t.app.inject("/api/networks"))
      .json<{ networks: NetworkSummary[] }>()
      .networks.find((n) => n.id === id);
    expect(listed).toMatchObject({ avgRating: 3, reviewCount: 2 });
  });

  it("keeps a review on the site it was posted from", async () => {
    const [, , id] = await networkIds();
    const { headers } = await signIn();
    await post(id, { site: "offeratlas", rating: 3, comment: COMMENT }, headers);
    const [row] = await t.db.query<{ site_id: string }>(sql`SELECT site_id FROM reviews WHERE network_id = ${id}`);
    expect(row.site_id).toBe("offeratlas");
    expect((await post(id, { site: "nowhere", rating: 3, comment: COMMENT }, headers)).statusCode).toBe(400);
  });

  it("rate limits a user's review submissions with 429 and Retry-After", async () => {
    const ids = await networkIds();
    const { headers } = await signIn();
    for (let i = 0; i < 5; i++)
      expect((await post(ids[i], { rating: 4, comment: COMMENT }, headers)).statusCode).toBe(201);
    const res = await post(ids[5], { rating: 4, comment: COMMENT }, headers);
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
    expect(typeof res.json().message).toBe("string");
  });
});

describe("GET /api/networks/{id}/reviews", () => {
  it("pages reviews newest first with the rating distribution", async () => {
    const id = (await networkIds())[8];
    const ratings = [5, 4, 4, 3, 5, 1, 2, 5, 4, 4, 5, 3];
    const users = [];
    for (const rating of ratings) {
      const u = await signIn(t, `User ${rating}`);
      users.push(u);
      expect((await post(id, { rating, comment: `${COMMENT} (${users.length})` }, u.headers)).statusCode).toBe(201);
    }
    const page1 = await t.app.inject(`/api/networks/${id}/reviews`);
    expect(page1.statusCode).toBe(200);
    const body = page1.json<ReviewPage>();
    expect(body).toMatchObject({
      page: 1,
      pageSize: 10,
      total: 12,
      pageCount: 2,
      reviewCount: 12,
      distribution: { 1: 1, 2: 1, 3: 2, 4: 4, 5: 4 },
    });
    const mean = ratings.reduce((s, r) => s + r, 0) / ratings.length;
    expect(body.avgRating).toBe(Math.round(mean * 100) / 100);
    expect(body.trustScore).toBeLessThan(body.avgRating); // pulled towards the 3-star prior
    expect(body.reviews).toHaveLength(10);
    expect(body.reviews[0].comment).toContain("(12)");
    const times = body.reviews.map((r) => Date.parse(r.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const page2 = (await t.app.inject(`/api/networks/${id}/reviews?page=2`)).json<ReviewPage>();
    expect(page2.reviews.map((r) => r.comment.match(/\((\d+)\)/)![1])).toEqual(["2", "1"]);
    expect((await t.app.inject(`/api/networks/${id}/reviews?page=0`)).statusCode).toBe(400);
    expect((await t.app.inject(`/api/networks/${id}/reviews?page=x`)).statusCode).toBe(400);
  });

  it("answers an empty page for an unreviewed network and 404 for an unknown one", async () => {
    const id = (await networkIds())[11];
    const body = (await t.app.inject(`/api/networks/${id}/reviews`)).json();
    expect(body).toMatchObject({
      reviews: [],
      total: 0,
      avgRating: 0,
      reviewCount: 0,
      distribution: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 },
    });
    expect((await t.app.inject("/api/networks/999999/reviews")).statusCode).toBe(404);
  });
});

describe("concurrent reviews", () => {
  it("ends with exactly the right average and count when many reviews arrive at once", async () => {
    const id = (await networkIds())[9];
    const users = await Promise.all(Array.from({ length: 24 }, (_, i) => signIn(t, `Racer ${i}`)));
    const ratings = users.map((_, i) => ((i * 7) % 5) + 1);
    // Each user also sends a duplicate at the same moment: one review per user must survive.
    const results = await Promise.all(
      users.flatMap((u, i) => [
        post(id, { rating: ratings[i], comment: COMMENT }, u.headers),
        post(id, { rating: ratings[i], comment: `${COMMENT} again` }, u.headers),
      ]),
    );
    expect(results.every((r) => r.statusCode === 200 || r.statusCode === 201)).toBe(true);
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(users.length);
    const mean = ratings.reduce((s, r) => s + r, 0) / ratings.length;
    expect(await standing(id)).toEqual({ avg_rating: Math.round(mean * 100) / 100, review_count: users.length });
    const [{ n }] = await t.db.query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM reviews WHERE network_id = ${id}`,
    );
    expect(n).toBe(users.length);
  });
});

describe("anti-bot check", () => {
  let verifier: http.Server;
  let verifyUrl = "";
  beforeAll(async () => {
    // A stand-in for the provider: tokens look like "ok:<action>".
    verifier = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const token = new URLSearchParams(body).get("response") ?? "";
        const [verdict, action] = token.split(":");
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ success: verdict === "ok", score: 0.9, action }));
      });
    });
    await new Promise<void>((resolve) => verifier.listen(0, "127.0.0.1", resolve));
    verifyUrl = `http://127.0.0.1:${(verifier.address() as AddressInfo).port}/verify`;
  });
  afterAll(() => verifier?.close());

  // The same services the API assembles, with keys configured (one database per test file, so no second app).
  it("refuses a review without a valid token for the review action, and accepts one with it", async () => {
    const antibot = createAntibot({ siteKey: "site-key", secretKey: "secret-key", verifyUrl, minScore: 0.5 });
    const reviews = createReviewService(t.db, { antibot, rateLimiter: createRateLimiter(t.db) });
    const { userId } = await signIn(t, "Guarded User");
    const id = (await networkIds())[10];
    for (const token of ["", "bad:review", "ok:login"]) {
      await expect(
        reviews.submit({
          networkId: id,
          userId,
          siteId: "offeratlas",
          ip: "10.9.9.9",
          input: { rating: 4, comment: COMMENT, "g-recaptcha-response": token },
        }),
      ).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/ReCaptcha/) });
    }
    expect(await standing(id)).toEqual({ avg_rating: 0, review_count: 0 });
    const ok = await reviews.submit({
      networkId: id,
      userId,
      siteId: "offeratlas",
      ip: "10.9.9.9",
      input: { rating: 4, comment: COMMENT, "g-recaptcha-response": "ok:review" },
    });
    expect(ok).toMatchObject({ created: true, reviewCount: 1, avgRating: 4 });
  });
});
