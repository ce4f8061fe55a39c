// E-mail alerts (issue #14) run with a controlled clock, never a sleep: instant,
// daily and weekly timing, one mention per change across runs and alerts, no
// empty digests, the saved search's filters, watchlist alerts for payout changes
// and retirements, and the stored mail's List-Unsubscribe headers.
import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRoles } from "../helpers/staff.ts";
import { aMondayAhead, DAY, HOUR, mailsTo, offerTools, plus, saveSearch, tokenOf, type Account } from "./helpers.ts";

let t: TestApp;
let admin: Account;
let offers: ReturnType<typeof offerTools>;
let networks: { id: number; name: string }[];
const monday = aMondayAhead();
const run = (now: Date) => t.app.services.alerts.run(now);

beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 3, offers: 10, trafficSources: 1 } });
  admin = await signInWithRoles(t, ["admin"]);
  offers = offerTools(t, admin);
  networks = await t.db.query(sql`SELECT id::int, name FROM networks ORDER BY id LIMIT 3`);
});
afterAll(async () => {
  await t?.close();
});

describe("a saved search's instant alert", () => {
  let alice: Account;
  const sunday = plus(monday, -DAY);

  it("mails a new matching offer once, with its network, payout and link, and List-Unsubscribe headers", async () => {
    alice = await signInWithRoles(t, [], "Alice Affiliate");
    await saveSearch(t, alice, {
      name: "Zephyrine US",
      query: "zephyrine",
      countries: ["US"],
      alertFrequency: "instant",
    });
    const match = await offers.create({
      name: "Zephyrine Keto",
      networkId: networks[0].id,
      payoutAmount: 10,
      countries: ["US"],
    });
    await offers.create({ name: "Zephyrine Keto DE", networkId: networks[0].id, payoutAmount: 10, countries: ["DE"] });
    await offers.create({ name: "Plain Gummies", networkId: networks[0].id, payoutAmount: 10, countries: ["US"] });

    expect(await run(sunday)).toEqual({ digests: expect.any(Number) });
    const [mail, ...more] = await mailsTo(t, alice.email);
    expect(more).toEqual([]);
    expect(mail.subject).toBe("OfferAtlas alert: 1 change");
    expect(mail.text).toContain('Your saved search "Zephyrine US":');
    expect(mail.text).toContain(`- New offer: Zephyrine Keto (${networks[0].name}), $10.00 CPA`);
    expect(mail.text).toContain(`${t.config.publicUrl}/offer/${match.id}/${match.slug}`);
    expect(mail.text).not.toContain("Zephyrine Keto DE");
    expect(mail.text).not.toContain("Plain Gummies");
    expect(mail.headers["List-Unsubscribe"]).toMatch(
      new RegExp(`^<${t.config.publicUrl}/unsubscribe/[A-Za-z0-9_-]{43}>$`),
    );
    expect(mail.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");

    // Delivered through the outbox: in file mode the .eml carries the headers too.
    const [{ sent }] = await t.db.query<{ sent: boolean }>(
      sql`SELECT sent_at IS NOT NULL AS sent FROM mail_outbox WHERE id = ${mail.id}`,
    );
    expect(sent).toBe(true);
    // The outbox directory is shared by test runs (ids repeat across databases): the file is the one to Alice.
    const dir = t.app.services.mail.outboxDir!;
    const files = (await fs.readdir(dir)).filter((f) => f.endsWith(`-${mail.id}.eml`));
    const texts = await Promise.all(files.map((f) => fs.readFile(path.join(dir, f), "utf8")));
    // Long headers are folded (RFC 5322 §2.2.3): unfolded, they read as one line.
    const raw = (texts.find((text) => text.includes(`To: ${alice.email}`)) ?? "").replace(/\r?\n(?=[ \t])/g, "");
    expect(raw).toContain(
      `List-Unsubscribe: <${t.config.publicUrl}/unsubscribe/${tokenOf(mail.headers["List-Unsubscribe"])}>`,
    );
    expect(raw).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");

    // The next runs have nothing new to tell: no second mention, no empty digest.
    await run(plus(sunday, 60_000));
    await run(plus(sunday, 120_000));
    expect(await mailsTo(t, alice.email)).toHaveLength(1);
  });

  it("tells of payout changes up and down with the amount, then of the offer's retirement", async () => {
    const [{ id }] = await t.db.query<{ id: number }>(sql`SELECT id::int FROM offers WHERE name = 'Zephyrine Keto'`);
    await offers.update(id, { payoutAmount: 12.5 });
    await run(plus(sunday, HOUR));
    await offers.update(id, { payoutAmount: 9 });
    // An edit that leaves payout, type and status alone is no news.
    await offers.update(id, { description: "Now with more zephyrine." });
    await run(plus(sunday, 2 * HOUR));
    await offers.retire(id);
    await run(plus(sunday, 3 * HOUR));
    const mails = await mailsTo(t, alice.email);
    expect(mails.map((m) => m.subject)).toEqual([
      "OfferAtlas alert: 1 change",
      "OfferAtlas alert: 1 change",
      "OfferAtlas alert: 1 change",
      "OfferAtlas alert: 1 change",
    ]);
    expect(mails[1].text).toContain(`- Payout up by $2.50: Zephyrine Keto (${networks[0].name}), $10.00 -> $12.50 CPA`);
    expect(mails[2].text).toContain(
      `- Payout down by $3.50: Zephyrine Keto (${networks[0].name}), $12.50 -> $9.00 CPA`,
    );
    expect(mails[3].text).toContain(`- Offer retired: Zephyrine Keto (${networks[0].name})`);
  });

  it("sends nothing to a user whose alerts found nothing", async () => {
    const quiet = await signInWithRoles(t, [], "Quiet Quentin");
    await saveSearch(t, quiet, { name: "Nothing", query: "xylophonic", alertFrequency: "instant" });
    await offers.create({ name: "Unrelated Serum", networkId: networks[1].id, payoutAmount: 3 });
    expect(await run(plus(sunday, 4 * HOUR))).toMatchObject({ digests: expect.any(Number) });
    expect(await mailsTo(t, quiet.email)).toEqual([]);
  });
});

describe("daily and weekly digests", () => {
  it("mail at the digest hour of the next day or Monday, with what came since", async () => {
    const daily = await signInWithRoles(t, [], "Dana Daily");
    const weekly = await signInWithRoles(t, [], "Walt Weekly");
    await saveSearch(t, daily, { name: "Quokkaberry", query: "quokkaberry", alertFrequency: "daily" });
    await saveSearch(t, weekly, { name: "Quokkaberry", query: "quokkaberry", alertFrequency: "weekly" });

    // Monday 07:30: both are due (made before the slot); nothing has changed, so nothing is sent.
    await run(plus(monday, HOUR / 2));
    await offers.create({ name: "Quokkaberry Serum", networkId: networks[1].id, payoutAmount: 20 });
    const count = async () => [(await mailsTo(t, daily.email)).length, (await mailsTo(t, weekly.email)).length];
    expect(await count()).toEqual([0, 0]);

    await run(plus(monday, HOUR));
    await run(plus(monday, DAY - 1000)); // Tuesday 06:59:59
    expect(await count()).toEqual([0, 0]);

    await run(plus(monday, DAY)); // Tuesday 07:00
    expect(await count()).toEqual([1, 0]);
    const [digest] = await mailsTo(t, daily.email);
    expect(digest.subject).toBe("OfferAtlas daily digest: 1 change");
    expect(digest.text).toContain("- New offer: Quokkaberry Serum");

    await run(plus(monday, DAY + 60_000));
    await run(plus(monday, 7 * DAY - 1000)); // Monday 06:59:59 of the next week
    expect(await count()).toEqual([1, 0]);

    await run(plus(monday, 7 * DAY)); // Monday 07:00
    expect(await count()).toEqual([1, 1]);
    const [weeklyDigest] = await mailsTo(t, weekly.email);
    expect(weeklyDigest.subject).toBe("OfferAtlas weekly digest: 1 change");
    expect(weeklyDigest.text).toContain("- New offer: Quokkaberry Serum");
  });
});

describe("watchlist alerts", () => {
  it("tell of a followed offer's payout change and retirement, a followed network's new offers and retirement", async () => {
    const dave = await signInWithRoles(t, [], "Dave Watcher");
    const followed = await offers.create({ name: "Marmalade Loans", networkId: networks[0].id, payoutAmount: 40 });
    const follow = (payload: object) =>
      t.app.inject({ method: "POST", url: "/api/account/watchlist", headers: dave.headers, payload });
    expect((await follow({ offerId: followed.id })).statusCode).toBe(201);
    expect((await follow({ networkId: networks[2].id })).statusCode).toBe(201);
    const set = await t.app.inject({
      method: "PUT",
      url: "/api/account/watchlist-alert",
      headers: dave.headers,
      payload: { alertFrequency: "instant" },
    });
    expect(set.statusCode, set.body).toBe(200);
    // The same offer in a saved search of Dave's: one change, one mention.
    await saveSearch(t, dave, { name: "Marmalade", query: "marmalade", alertFrequency: "instant" });

    await offers.update(followed.id, { payoutAmount: 39 });
    await offers.create({ name: "Fresh Network Offer", networkId: networks[2].id, payoutAmount: 5 });
    await run(plus(monday, 8 * DAY));
    const [first] = await mailsTo(t, dave.email);
    expect(first.text).toContain("Your watchlist:");
    expect(first.text).toContain(`- Payout down by $1.00: Marmalade Loans (${networks[0].name}), $40.00 -> $39.00 CPA`);
    expect(first.text).toContain(`- New offer: Fresh Network Offer (${networks[2].name})`);
    expect(first.text.match(/Marmalade Loans \(/g)).toHaveLength(1);

    await offers.retire(followed.id);
    const network = await t.app.services.networkEditor.get(String(networks[2].id));
    await t.app.services.networkEditor.retire(
      { siteId: t.config.siteId, userId: admin.user.id },
      String(networks[2].id),
      {
        updatedAt: network.updatedAt,
      },
    );
    await run(plus(monday, 8 * DAY + HOUR));
    await run(plus(monday, 8 * DAY + 2 * HOUR));
    const mails = await mailsTo(t, dave.email);
    expect(mails).toHaveLength(2);
    expect(mails[1].text).toContain(`- Offer retired: Marmalade Loans (${networks[0].name})`);
    expect(mails[1].text).toContain(`- Network retired: ${networks[2].name}`);
    expect(mails[1].subject).toBe("OfferAtlas alert: 2 changes");
  });
});
