// Review moderation: readers report reviews; moderators list the reported, held
// and hidden queues and hide or restore a review, the network's standing
// following in the same transaction, with an audit row each time.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import type { AuditPage } from "#contracts/admin.ts";
import type { ModerationPage } from "#contracts/reviews.ts";
import { FORBIDDEN } from "#contracts/roles.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRoles } from "../helpers/staff.ts";

let t: TestApp;
let networks: number[] = [];
const COMMENT = "Paid on time every month, helpful affiliate manager.";
type Headers = Record<string, string>;

beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 6, offers: 20, trafficSources: 1 } });
  networks = (await t.db.query<{ id: number }>(sql`SELECT id FROM networks ORDER BY id`)).map((r) => r.id);
});
afterAll(() => t?.close());

const reader = (name = "Rae Reader") => signInWithRoles(t, [], name);
/** An account signed up a month ago: past every new-account rule. */
async function established(name = "Eve Established") {
  const account = await reader(name);
  await t.db.query(sql`UPDATE users SET created_at = now() - interval '30 days' WHERE id = ${account.user.id}`);
  return account;
}

async function review(networkId: number, headers: Headers, rating: number, comment = COMMENT) {
  const res = await t.app.inject({
    method: "POST",
    url: `/api/networks/${networkId}/reviews`,
    headers,
    payload: { rating, comment },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ review: { id: number }; status: string; heldBecause?: string }>();
}

const report = (networkId: number | string, reviewId: number | string, payload: object, headers: Headers = {}) =>
  t.app.inject({ method: "POST", url: `/api/networks/${networkId}/reviews/${reviewId}/report`, headers, payload });

const standing = async (id: number) =>
  (
    await t.db.query<{ avg_rating: number; review_count: number }>(
      sql`SELECT avg_rating, review_count FROM networks WHERE id = ${id}`,
    )
  )[0];

const shown = async (id: number) =>
  (await t.app.inject(`/api/networks/${id}`)).json<{
    network: { avgRating: number; reviewCount: number; trustScore: number };
  }>().network;

describe("POST /api/networks/{networkId}/reviews/{reviewId}/report", () => {
  it("takes one report per reader per review and refuses the rest with a message", async () => {
    const id = networks[0];
    const author = await reader("Ann Author");
    const { review: written } = await review(id, author.headers, 5);
    const someone = await reader();

    const anonymous = await report(id, written.id, { reason: "spam" });
    expect(anonymous.statusCode).toBe(401);

    const ok = await report(
      id,
      written.id,
      { reason: "fake", comment: "Same text on five networks." },
      someone.headers,
    );
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toEqual({ message: expect.any(String) });

    const again = await report(id, written.id, { reason: "spam" }, someone.headers);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: "You have already reported this review" });

    const own = await report(id, written.id, { reason: "spam" }, author.headers);
    expect(own.statusCode).toBe(400);
    expect(own.json()).toEqual({ message: "You cannot report your own review" });

    const other = await reader();
    for (const payload of [
      {},
      { reason: "boring" },
      { reason: "other" },
      { reason: "spam", comment: "x".repeat(1001) },
    ]) {
      const res = await report(id, written.id, payload, other.headers);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 40)).toBe(400);
      expect(res.json()).toEqual({ message: expect.any(String) });
    }
    expect(
      (await report(id, written.id, { reason: "other", comment: "Written by their staff" }, other.headers)).statusCode,
    ).toBe(201);

    for (const [net, rev] of [
      [id, 999999],
      [id, "abc"],
      [networks[1], written.id], // the review belongs to another network
    ]) {
      const res = await report(net, rev, { reason: "spam" }, (await reader()).headers);
      expect(res.statusCode, `${net}/${rev}`).toBe(404);
      expect(res.json()).toEqual({ message: "Review not found" });
    }
    const rows = await t.db.query<{ reason: string; comment: string }>(
      sql`SELECT reason, comment FROM review_reports WHERE review_id = ${written.id} ORDER BY id`,
    );
    expect(rows).toEqual([
      { reason: "fake", comment: "Same text on five networks." },
      { reason: "other", comment: "Written by their staff" },
    ]);
  });

  it("rate limits a reader's reports with 429", async () => {
    const id = networks[5];
    const someone = await reader();
    const ids: number[] = [];
    for (let i = 0; i < 11; i++) ids.push((await review(id, (await established(`Author ${i}`)).headers, 4)).review.id);
    for (const reviewId of ids.slice(0, 10))
      expect((await report(id, reviewId, { reason: "spam" }, someone.headers)).statusCode).toBe(201);
    const res = await report(id, ids[10], { reason: "spam" }, someone.headers);
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
  });
});

describe("the /api/admin/reviews routes", () => {
  it("answer 401 without a session and 403 to a plain user", async () => {
    const plain = await reader();
    const routes = [
      { method: "GET" as const, url: "/api/admin/reviews?status=held" },
      { method: "POST" as const, url: "/api/admin/reviews/1/hide", payload: { reason: "Spam" } },
      { method: "POST" as const, url: "/api/admin/reviews/1/restore" },
      { method: "POST" as const, url: "/api/admin/reviews/1/dismiss" },
    ];
    for (const route of routes) {
      expect((await t.app.inject(route)).statusCode, route.url).toBe(401);
      const refused = await t.app.inject({ ...route, headers: plain.headers });
      expect(refused.statusCode, route.url).toBe(403);
      expect(refused.json()).toEqual({ message: FORBIDDEN });
    }
  });

  it("refuses a bad queue, page, reason or id with a message", async () => {
    const mod = await signInWithRoles(t, ["moderator"]);
    for (const query of ["", "status=all", "status=held&page=0"]) {
      const res = await t.app.inject({ url: `/api/admin/reviews?${query}`, headers: mod.headers });
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toEqual({ message: expect.any(String) });
    }
    const noReason = await t.app.inject({
      method: "POST",
      url: "/api/admin/reviews/1/hide",
      headers: mod.headers,
      payload: { reason: "  " },
    });
    expect(noReason.json()).toEqual({ message: "Reason cannot be blank" });
    for (const id of ["999999", "abc"]) {
      const res = await t.app.inject({ method: "POST", url: `/api/admin/reviews/${id}/restore`, headers: mod.headers });
      expect(res.statusCode, id).toBe(404);
    }
  });

  it("lists reported reviews with their reports, hides one and restores it, the network's standing following", async () => {
    const id = networks[2];
    const mod = await signInWithRoles(t, ["moderator"]);
    const good = await review(id, (await reader("Gus Good")).headers, 4);
    const bad = await review(id, (await reader("Bo Bad")).headers, 1, "Terrible network, never pays, total scam.");
    expect(await standing(id)).toEqual({ avg_rating: 2.5, review_count: 2 });
    await report(id, bad.review.id, { reason: "fake", comment: "A competitor." }, (await reader()).headers);
    await report(id, bad.review.id, { reason: "offensive" }, (await reader()).headers);

    const queue = await t.app.inject({ url: "/api/admin/reviews?status=reported", headers: mod.headers });
    expect(queue.statusCode, queue.body).toBe(200);
    const reported = queue.json<ModerationPage>();
    expect(reported).toMatchObject({ page: 1, pageSize: 50 });
    const item = reported.items.find((i) => i.id === bad.review.id)!;
    expect(item).toMatchObject({
      networkId: id,
      authorName: "Bo Bad",
      rating: 1,
      status: "published",
      reportCount: 2,
    });
    expect(item.reports.map((r) => [r.reason, r.comment])).toEqual([
      ["offensive", ""],
      ["fake", "A competitor."],
    ]);
    expect(reported.items.some((i) => i.id === good.review.id)).toBe(false);

    const hide = (reviewId: number) =>
      t.app.inject({
        method: "POST",
        url: `/api/admin/reviews/${reviewId}/hide`,
        headers: mod.headers,
        payload: { reason: "Fake review from a competitor" },
      });
    const restore = (reviewId: number) =>
      t.app.inject({ method: "POST", url: `/api/admin/reviews/${reviewId}/restore`, headers: mod.headers });

    const hidden = await hide(bad.review.id);
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect(hidden.json()).toMatchObject({ status: "hidden", avgRating: 4, reviewCount: 1 });
    expect(await standing(id)).toEqual({ avg_rating: 4, review_count: 1 });
    expect(await shown(id)).toMatchObject({ avgRating: 4, reviewCount: 1 });
    const listed = (await t.app.inject(`/api/networks/${id}/reviews`)).json<{ reviews: { id: number }[] }>();
    expect(listed.reviews.map((r) => r.id)).toEqual([good.review.id]);
    expect((await hide(bad.review.id)).statusCode).toBe(409);
    // A hidden review cannot be reported any more, and leaves the reported queue for the hidden one.
    expect((await report(id, bad.review.id, { reason: "spam" }, (await reader()).headers)).statusCode).toBe(404);
    const hiddenQueue = (
      await t.app.inject({ url: "/api/admin/reviews?status=hidden", headers: mod.headers })
    ).json<ModerationPage>();
    expect(hiddenQueue.items.find((i) => i.id === bad.review.id)).toMatchObject({
      hiddenReason: "Fake review from a competitor",
    });
    const reportedNow = (
      await t.app.inject({ url: "/api/admin/reviews?status=reported", headers: mod.headers })
    ).json<ModerationPage>();
    expect(reportedNow.items.some((i) => i.id === bad.review.id)).toBe(false);

    const restored = await restore(bad.review.id);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(await standing(id)).toEqual({ avg_rating: 2.5, review_count: 2 });
    expect(await shown(id)).toMatchObject({ avgRating: 2.5, reviewCount: 2 });
    expect((await restore(bad.review.id)).statusCode).toBe(409);

    const audit = await t.db.query<{ action: string; actor_id: number; before: unknown; after: unknown }>(sql`
      SELECT action, actor_id, before, after FROM audit_log WHERE subject_type = 'review' AND subject_id = ${bad.review.id}
      ORDER BY id`);
    expect(audit).toEqual([
      {
        action: "review.hide",
        actor_id: mod.user.id,
        before: { status: "published", hiddenReason: null, avgRating: 2.5, reviewCount: 2 },
        after: { status: "hidden", hiddenReason: "Fake review from a competitor", avgRating: 4, reviewCount: 1 },
      },
      {
        action: "review.restore",
        actor_id: mod.user.id,
        before: { status: "hidden", hiddenReason: "Fake review from a competitor", avgRating: 4, reviewCount: 1 },
        after: { status: "published", hiddenReason: null, avgRating: 2.5, reviewCount: 2 },
      },
    ]);
    const admin = await signInWithRoles(t, ["admin"]);
    const log = (
      await t.app.inject({ url: "/api/admin/audit?subjectType=review", headers: admin.headers })
    ).json<AuditPage>();
    expect(log.items.map((i) => i.action).slice(0, 2)).toEqual(["review.restore", "review.hide"]);
  });

  it("holds a review with a link, explained and not counted, until a moderator restores it", async () => {
    const id = networks[3];
    const mod = await signInWithRoles(t, ["moderator"]);
    await review(id, (await reader()).headers, 5);
    const linked = await review(
      id,
      (await reader("Lin Link")).headers,
      1,
      "Better payouts at https://example.com/join now",
    );
    expect(linked).toMatchObject({ status: "held", heldBecause: expect.stringContaining("link") });
    expect(await standing(id)).toEqual({ avg_rating: 5, review_count: 1 });
    expect(await shown(id)).toMatchObject({ avgRating: 5, reviewCount: 1 });
    // Not shown, so not reportable either.
    expect((await report(id, linked.review.id, { reason: "spam" }, (await reader()).headers)).statusCode).toBe(404);

    const held = (
      await t.app.inject({ url: "/api/admin/reviews?status=held", headers: mod.headers })
    ).json<ModerationPage>();
    const item = held.items.find((i) => i.id === linked.review.id);
    expect(item).toMatchObject({ status: "held", holdReason: expect.stringContaining("link"), networkId: id });
    expect(held.total).toBe(held.items.length);

    const restored = await t.app.inject({
      method: "POST",
      url: `/api/admin/reviews/${linked.review.id}/restore`,
      headers: mod.headers,
    });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(await standing(id)).toEqual({ avg_rating: 3, review_count: 2 });
    const [{ n }] = await t.db.query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM audit_log WHERE action = 'review.restore' AND subject_id = ${linked.review.id}`,
    );
    expect(n).toBe(1);
  });

  it("holds new accounts' reviews during a burst, explained, and publishes established accounts' reviews", async () => {
    const id = networks[1];
    for (let i = 0; i < 5; i++)
      expect((await review(id, (await reader(`New ${i}`)).headers, 5)).status).toBe("published");
    const sixth = await review(id, (await reader("New 5")).headers, 5);
    expect(sixth).toMatchObject({ status: "held", heldBecause: expect.stringContaining("burst") });
    expect((await review(id, (await established()).headers, 2)).status).toBe("published");
    expect(await standing(id)).toEqual({ avg_rating: 4.5, review_count: 6 });
    const [row] = await t.db.query<{ status: string; hold_reason: string }>(
      sql`SELECT status, hold_reason FROM reviews WHERE id = ${sixth.review.id}`,
    );
    expect(row).toEqual({
      status: "held",
      hold_reason: expect.stringContaining("5 reviews from accounts younger than 7 days"),
    });
  });

  it("lets a moderator hide a held review", async () => {
    const id = networks[4];
    const mod = await signInWithRoles(t, ["moderator"]);
    const linked = await review(id, (await reader()).headers, 2, "Visit www.example.com for a better network");
    const res = await t.app.inject({
      method: "POST",
      url: `/api/admin/reviews/${linked.review.id}/hide`,
      headers: mod.headers,
      payload: { reason: "Advertising" },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await standing(id)).toEqual({ avg_rating: 0, review_count: 0 });
    const [row] = await t.db.query<{ status: string; moderated_by: number }>(
      sql`SELECT status, moderated_by FROM reviews WHERE id = ${linked.review.id}`,
    );
    expect(row).toEqual({ status: "hidden", moderated_by: mod.user.id });
  });

  it("dismisses a reported review's reports: it stays published and counted, and leaves the queue", async () => {
    const id = networks[5];
    const mod = await signInWithRoles(t, ["moderator"]);
    const low = await review(
      id,
      (await established("Lou Low")).headers,
      1,
      "Slow payments and a manager who never answers.",
    );
    const high = await review(
      id,
      (await established("Hal High")).headers,
      5,
      "Fast payments and a manager who always answers.",
    );
    for (const target of [low, high]) {
      const sent = await report(id, target.review.id, { reason: "fake" }, (await reader()).headers);
      expect(sent.statusCode, sent.body).toBe(201);
    }
    const queue = async (query = "") =>
      (
        await t.app.inject({ url: `/api/admin/reviews?status=reported${query}`, headers: mod.headers })
      ).json<ModerationPage>();
    const mine = new Set([low.review.id, high.review.id]);
    const ours = (page: ModerationPage) => page.items.filter((r) => mine.has(r.id)).map((r) => r.id);
    // Sorted by the URL: rating low to high, then high to low.
    expect(ours(await queue("&sort=rating&dir=asc"))).toEqual([low.review.id, high.review.id]);
    expect(ours(await queue("&sort=rating&dir=desc"))).toEqual([high.review.id, low.review.id]);

    const before = await standing(id);
    const dismiss = () =>
      t.app.inject({ method: "POST", url: `/api/admin/reviews/${low.review.id}/dismiss`, headers: mod.headers });
    const res = await dismiss();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ id: low.review.id, networkId: id, status: "published" });
    expect(ours(await queue())).toEqual([high.review.id]);
    expect(await standing(id)).toEqual(before);
    const again = await dismiss();
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: "The review has no open reports" });

    const audit = (
      await t.app.inject({
        url: "/api/admin/audit?action=review.dismiss",
        headers: (await signInWithRoles(t, ["admin"])).headers,
      })
    ).json<AuditPage>();
    expect(audit.items[0]).toMatchObject({
      subjectId: low.review.id,
      actorId: mod.user.id,
      before: { status: "published", openReports: 1 },
      after: { status: "published", openReports: 0 },
    });
  });
});
