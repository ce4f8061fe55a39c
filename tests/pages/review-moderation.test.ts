// The review form on a network page tells the author the truth: a review a
// moderation rule holds back says so (and why), instead of "published".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { AUTH_COOKIE } from "#core/auth/sessions.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRoles } from "../helpers/staff.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 2, offers: 10, trafficSources: 1 } });
});
afterAll(() => t?.close());

const postReview = async (cookie: string, path: string, comment: string) =>
  t.app.inject({
    method: "POST",
    url: path,
    headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams({ rating: "4", comment, "g-recaptcha-response": "" }).toString(),
  });

describe("posting a review from the network page", () => {
  it("says a review with a link waits for a moderator, and a plain one is published", async () => {
    const [network] = await t.db.query<{ id: number; slug: string }>(
      sql`SELECT id, slug FROM networks ORDER BY id LIMIT 1`,
    );
    const path = `/network/${network.id}/${network.slug}`;
    const reader = await signInWithRoles(t, []);
    const cookie = `${AUTH_COOKIE}=${reader.headers.authorization.replace("Bearer ", "")}`;

    const held = await postReview(cookie, path, "Great payouts, details at https://example.com/proof for everyone.");
    expect(held.statusCode, held.body).toBe(200);
    expect(held.body).toContain("Thank you! Your review will appear once a moderator has checked it.");
    expect(held.body).toContain("The comment contains a link");
    expect(held.body).not.toContain("Your review has been published.");

    const other = await signInWithRoles(t, []);
    const otherCookie = `${AUTH_COOKIE}=${other.headers.authorization.replace("Bearer ", "")}`;
    const published = await postReview(otherCookie, path, "Paid on time every month, helpful affiliate manager.");
    expect(published.statusCode, published.body).toBe(200);
    expect(published.body).toContain("Thank you! Your review has been published.");
  });
});
