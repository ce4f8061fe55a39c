// Unsubscribing from alert mails (issue #14): the links work signed out, GET only
// asks (a mail scanner opening it changes nothing), POST stops the alert (one-click,
// RFC 8058), the digest's List-Unsubscribe token stops every alert of its frequency,
// tokens are 256 random bits, an unknown token answers 404, and the page is rate limited.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRoles } from "../helpers/staff.ts";
import { aMondayAhead, mailsTo, offerTools, saveSearch, tokenOf, type Account } from "./helpers.ts";

let t: TestApp;
let erin: Account;
let ids: { a: number; b: number };
let mail: Awaited<ReturnType<typeof mailsTo>>[number];
let address = 0;

beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 2, offers: 10, trafficSources: 1 } });
  const admin = await signInWithRoles(t, ["admin"]);
  erin = await signInWithRoles(t, [], "Erin Unsubscriber");
  const a = await saveSearch(t, erin, { name: "Pangolin", query: "pangolin", alertFrequency: "instant" });
  const b = await saveSearch(t, erin, { name: "Pangolin serums", query: "pangolin serum", alertFrequency: "instant" });
  ids = { a: a.id, b: b.id };
  const [network] = await t.db.query<{ id: number }>(sql`SELECT id::int FROM networks ORDER BY id LIMIT 1`);
  await offerTools(t, admin).create({ name: "Pangolin Serum", networkId: network.id, payoutAmount: 8 });
  await t.app.services.alerts.run(aMondayAhead());
  [mail] = await mailsTo(t, erin.email);
});
afterAll(async () => {
  await t?.close();
});

/** A signed-out request, each from its own address (the page's rate limit is per address). */
const visit = (method: "GET" | "POST", token: string, remoteAddress = `10.99.0.${++address}`) =>
  t.app.inject({
    method,
    url: `/unsubscribe/${token}`,
    remoteAddress,
    ...(method === "POST"
      ? { headers: { "content-type": "application/x-www-form-urlencoded" }, payload: "List-Unsubscribe=One-Click" }
      : {}),
  });
const frequencies = async () =>
  Object.fromEntries(
    (
      await t.db.query<{ id: number; f: string }>(
        sql`SELECT id::int, alert_frequency AS f FROM saved_searches WHERE user_id = ${erin.user.id}`,
      )
    ).map((r) => [r.id, r.f]),
  );

describe("unsubscribe links", () => {
  it("mention one change once, in the first alert that found it, each alert with its own stop link", () => {
    expect(mail.subject).toBe("OfferAtlas alert: 1 change");
    expect(mail.text.match(/Pangolin Serum \(/g)).toHaveLength(1);
    expect(mail.text).toContain('Your saved search "Pangolin":');
    expect(mail.text).not.toContain('"Pangolin serums"');
  });

  it("are 256-bit random tokens, one per alert and one per digest", async () => {
    const tokens = await t.db.query<{ token: string }>(sql`
      SELECT unsubscribe_token AS token FROM saved_searches UNION ALL SELECT token FROM alert_digest_tokens`);
    expect(tokens.length).toBeGreaterThanOrEqual(3);
    for (const { token } of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 bytes, base64url
    expect(new Set(tokens.map((r) => r.token)).size).toBe(tokens.length);
  });

  it("ask first on GET, signed out, and change nothing", async () => {
    const stop = tokenOf(/Stop this alert: (\S+)/.exec(mail.text)![1]);
    const page = await visit("GET", stop);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Stop receiving e-mail alerts for your saved search");
    expect(page.body).toMatch(/<button[^>]*type="submit"[^>]*>Unsubscribe<\/button>/);
    expect(await frequencies()).toEqual({ [ids.a]: "instant", [ids.b]: "instant" });
  });

  it("stop that alert alone on a one-click POST, signed out", async () => {
    const stop = tokenOf(/Stop this alert: (\S+)/.exec(mail.text)![1]);
    const res = await visit("POST", stop);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("You will no longer receive e-mail alerts for your saved search");
    expect(await frequencies()).toEqual({ [ids.a]: "none", [ids.b]: "instant" });
    // Again is fine, and the page says it is off.
    expect((await visit("POST", stop)).statusCode).toBe(200);
    expect((await visit("GET", stop)).body).toContain("You will no longer receive");
  });

  it("stop every alert of the digest's frequency through the List-Unsubscribe address", async () => {
    const res = await visit("POST", tokenOf(mail.headers["List-Unsubscribe"]));
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("You will no longer receive all your instant alert e-mails");
    expect(await frequencies()).toEqual({ [ids.a]: "none", [ids.b]: "none" });
  });

  it("answer 404 for a token that names nothing, however close", async () => {
    await t.db.query(sql`UPDATE saved_searches SET alert_frequency = 'daily' WHERE id = ${ids.b}`);
    const [{ token }] = await t.db.query<{ token: string }>(
      sql`SELECT unsubscribe_token AS token FROM saved_searches WHERE id = ${ids.b}`,
    );
    const close = (token[0] === "A" ? "B" : "A") + token.slice(1);
    for (const bad of [close, "short", `${token}x`]) {
      for (const method of ["GET", "POST"] as const) {
        const res = await visit(method, bad);
        expect(res.statusCode, `${method} ${bad}`).toBe(404);
        expect(res.body).toContain("This unsubscribe link is not valid");
      }
    }
    expect((await frequencies())[ids.b]).toBe("daily");
  });

  it("is rate limited per address", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await visit("GET", "A".repeat(43), "10.98.0.1")).statusCode);
    expect(statuses.slice(0, 30).every((s) => s === 404)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});
