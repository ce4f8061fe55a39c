// The first-review rule (HOLD_FIRST_REVIEWS, on by default): a new account's
// first review waits for a moderator, explained; once one of its reviews is
// published, its next ones are published at once; established accounts are
// never held by it; with the setting off nobody is.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRoles } from "../helpers/staff.ts";

const COMMENT = "Paid on time every month, helpful affiliate manager.";

describe("holding a new account's first review", () => {
  let t: TestApp;
  let networks: number[];
  beforeAll(async () => {
    t = await createTestApp({
      seed: { networks: 4, offers: 10, trafficSources: 1 },
      env: { HOLD_FIRST_REVIEWS: "true" },
    });
    networks = (await t.db.query<{ id: number }>(sql`SELECT id FROM networks ORDER BY id`)).map((r) => r.id);
  });
  afterAll(() => t?.close());

  const post = async (networkId: number, headers: Record<string, string>) => {
    const res = await t.app.inject({
      method: "POST",
      url: `/api/networks/${networkId}/reviews`,
      headers,
      payload: { rating: 4, comment: COMMENT },
    });
    expect([200, 201], res.body).toContain(res.statusCode);
    return res.json<{ review: { id: number }; status: string; heldBecause?: string }>();
  };

  it("holds the first, explained, and publishes the next once a moderator published one", async () => {
    const author = await signInWithRoles(t, []);
    const first = await post(networks[0], author.headers);
    expect(first).toMatchObject({ status: "held", heldBecause: "The first review of an account younger than 7 days." });
    // Editing it is still a first review.
    expect((await post(networks[0], author.headers)).status).toBe("held");

    const mod = await signInWithRoles(t, ["moderator"]);
    const queue = await t.app.inject({ url: "/api/admin/reviews?status=held", headers: mod.headers });
    expect(queue.json<{ items: { id: number; holdReason: string }[] }>().items).toContainEqual(
      expect.objectContaining({
        id: first.review.id,
        holdReason: "The first review of an account younger than 7 days.",
      }),
    );
    const restored = await t.app.inject({
      method: "POST",
      url: `/api/admin/reviews/${first.review.id}/restore`,
      headers: mod.headers,
    });
    expect(restored.statusCode, restored.body).toBe(200);
    expect((await post(networks[1], author.headers)).status).toBe("published");
  });

  it("never holds an established account's review", async () => {
    const veteran = await signInWithRoles(t, []);
    await t.db.query(sql`UPDATE users SET created_at = now() - interval '30 days' WHERE id = ${veteran.user.id}`);
    expect((await post(networks[2], veteran.headers)).status).toBe("published");
  });
});

describe("with HOLD_FIRST_REVIEWS=false", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: { networks: 2, offers: 5, trafficSources: 1 } });
  });
  afterAll(() => t?.close());

  it("publishes a new account's first review", async () => {
    const [network] = await t.db.query<{ id: number }>(sql`SELECT id FROM networks ORDER BY id LIMIT 1`);
    const author = await signInWithRoles(t, []);
    const res = await t.app.inject({
      method: "POST",
      url: `/api/networks/${network.id}/reviews`,
      headers: author.headers,
      payload: { rating: 5, comment: COMMENT },
    });
    expect(res.json()).toMatchObject({ status: "published" });
  });
});
