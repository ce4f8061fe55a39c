// Console edits record offer history (core/offers/editor.ts), as syncs do, so the
// offer page's payout history and the e-mail alerts see them: a created offer's
// first row, a row per change of payout, currency, type or status, none for other
// edits, and a starting point for an offer that had no history before its edit.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRoles } from "../helpers/staff.ts";
import { offerTools } from "./helpers.ts";

let t: TestApp;
let offers: ReturnType<typeof offerTools>;

beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 2, offers: 10, trafficSources: 1 } });
  offers = offerTools(t, await signInWithRoles(t, ["admin"]));
});
afterAll(async () => {
  await t?.close();
});

type Row = { amount: number | null; currency: string; type: string; status: string };
const historyOf = (id: number) =>
  t.db.query<Row>(sql`
    SELECT payout_amount::float8 AS amount, btrim(currency) AS currency, payout_type AS type, status
    FROM offer_history WHERE offer_id = ${id} ORDER BY recorded_at, id`);

describe("console edits and offer history", () => {
  it("records a created offer, its payout, currency, type and status changes, and its retirement", async () => {
    const [network] = await t.db.query<{ id: number }>(sql`SELECT id::int FROM networks ORDER BY id LIMIT 1`);
    const offer = await offers.create({ name: "Historic Offer", networkId: network.id, payoutAmount: 10 });
    expect(await historyOf(offer.id)).toEqual([{ amount: 10, currency: "USD", type: "CPA", status: "active" }]);

    await offers.update(offer.id, { description: "Only words changed" });
    expect(await historyOf(offer.id)).toHaveLength(1);

    await offers.update(offer.id, { payoutAmount: 11 });
    await offers.update(offer.id, { currency: "EUR" });
    await offers.update(offer.id, { payoutType: "CPL" });
    await offers.update(offer.id, { status: "paused" });
    await offers.retire(offer.id);
    expect(await historyOf(offer.id)).toEqual([
      { amount: 10, currency: "USD", type: "CPA", status: "active" },
      { amount: 11, currency: "USD", type: "CPA", status: "active" },
      { amount: 11, currency: "EUR", type: "CPA", status: "active" },
      { amount: 11, currency: "EUR", type: "CPL", status: "active" },
      { amount: 11, currency: "EUR", type: "CPL", status: "paused" },
      { amount: 11, currency: "EUR", type: "CPL", status: "retired" },
    ]);
  });

  it("gives an offer without history its starting point before the first change", async () => {
    const [seeded] = await t.db.query<{ id: number; amount: number }>(sql`
      SELECT o.id::int, o.payout_amount::float8 AS amount FROM offers o
      WHERE o.status = 'active' AND o.payout_amount IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM offer_history h WHERE h.offer_id = o.id)
      ORDER BY o.id LIMIT 1`);
    await offers.update(seeded.id, { payoutAmount: seeded.amount + 5 });
    const rows = await historyOf(seeded.id);
    expect(rows.map((r) => r.amount)).toEqual([seeded.amount, seeded.amount + 5]);
  });
});
