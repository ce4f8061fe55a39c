// What affiliates see of offer supply (issue #13): the payout-change trigger
// (through a sync and through the console editor), the "Updated in the last 7
// days" and "Payout increased" views (API and page URL), the marks on search
// rows, retirement by the source, and matching one product across networks.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql, array } from "#db/client.ts";
import {
  offerSearchFromUrl,
  type AdminOffer,
  type OfferListItem,
  type OfferPage,
  type OfferSearchResult,
} from "#contracts/offers.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRoles } from "../helpers/staff.ts";
import { everflowOffer, startFakeEverflow, type FakeEverflow } from "../fakes/everflow.ts";
import { addSource, API_KEY, offerOf, SECRETS_KEY } from "../supply/helpers.ts";

let t: TestApp;
let fake: FakeEverflow;
let admin: Awaited<ReturnType<typeof signInWithRoles>>;

beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 2, offers: 10, trafficSources: 1 }, env: { SECRETS_KEY } });
  fake = await startFakeEverflow({ apiKey: API_KEY, count: 6 });
  admin = await signInWithRoles(t, ["admin"]);
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

const search = async (payload: Record<string, unknown>) => {
  const res = await t.app.inject({ method: "POST", url: "/api/offers/search", payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<OfferSearchResult>();
};
const byId = (rows: OfferListItem[]) => new Map(rows.map((r) => [r.id, r]));

type Change = { changedAt: string | null; previousUsd: number | null; previousPercent: number | null };
const changeOf = async (id: number) => {
  const [row] = await t.db.query<Change>(sql`
    SELECT payout_changed_at::text AS "changedAt", previous_payout_usd::float8 AS "previousUsd",
      previous_payout_percent::float8 AS "previousPercent" FROM offers WHERE id = ${id}`);
  return row;
};

/** Moves a network's offers `days` into the past (listed and last changed then), as if synced long ago. */
const age = async (networkId: number, days: number) => {
  await t.db.query(sql`
    UPDATE offers SET created_at = now() - ${days}::int * interval '1 day', updated_at = now() - ${days}::int * interval '1 day'
    WHERE network_id = ${networkId}`);
  t.app.services.offers.catalogueChanged();
};

describe("payout changes on the offer row", () => {
  let networkId: number;
  let sourceId: number;

  it("a sync's payout change records when and from what (up and down); an unchanged run records nothing", async () => {
    ({ networkId, sourceId } = await addSource(t.db, t.app.services.secrets, { url: fake.url }));
    expect(await t.app.services.offerSync.run(sourceId)).toMatchObject({ status: "succeeded", new: 6 });
    // Offer 2 is a USD CPC offer paying $12, offer 3 a USD CPA + 8% offer paying $13.
    const two = await offerOf(t.db, sourceId, 2);
    const three = await offerOf(t.db, sourceId, 3);
    expect(two).toMatchObject({ payoutAmount: 12, currency: "USD" });
    expect(three).toMatchObject({ payoutAmount: 13, payoutPercent: 8, currency: "USD" });
    // A new offer has no change yet: the trigger watches updates only.
    expect(await changeOf(two.id)).toEqual({ changedAt: null, previousUsd: null, previousPercent: null });

    await age(networkId, 10);
    fake.state.versions.set(2, 5);
    fake.state.versions.set(3, -2);
    expect(await t.app.services.offerSync.run(sourceId)).toMatchObject({ changed: 2, unchanged: 4 });
    const up = await changeOf(two.id);
    expect(up).toMatchObject({ previousUsd: 12, previousPercent: null });
    expect(up.changedAt).not.toBeNull();
    expect(await changeOf(three.id)).toMatchObject({ previousUsd: 13, previousPercent: 8 });

    // Nothing moved: the row is not written and keeps its change.
    expect(await t.app.services.offerSync.run(sourceId)).toMatchObject({ changed: 0, unchanged: 6 });
    expect(await changeOf(two.id)).toEqual(up);
    // A change of something else (the name) leaves the payout's change as it was.
    fake.state.overrides.set(2, { ...everflowOffer(2, 5), name: "Fake Offer 2 renamed" });
    expect(await t.app.services.offerSync.run(sourceId)).toMatchObject({ changed: 1 });
    expect(await changeOf(two.id)).toEqual(up);
  });

  it("the views answer the source's recent changes, with their marks, through the API and the page URL", async () => {
    const two = await offerOf(t.db, sourceId, 2);
    const three = await offerOf(t.db, sourceId, 3);

    const updated = await search({ networks: [networkId], selectedTab: "updated" });
    expect(updated.selectedTab).toBe("updated");
    // Only the two changed offers: the others were last written 10 days ago. Latest change first.
    expect(updated.offers.map((o) => o.id).sort()).toEqual([two.id, three.id].sort());
    expect(updated.offers[0].id).toBe(two.id); // renamed after offer 3's change
    const rows = byId(updated.offers);
    expect(rows.get(two.id)).toMatchObject({
      isNew: false,
      payoutChange: { direction: "up", usd: 5, percent: null, at: expect.stringMatching(/Z$/) },
    });
    expect(rows.get(three.id)).toMatchObject({ isNew: false, payoutChange: { direction: "down", usd: 2 } });

    const increased = await search({ networks: [networkId], selectedTab: "payoutIncreased" });
    expect(increased.offers.map((o) => o.id)).toEqual([two.id]);
    expect(increased.total).toBe(1);
    // With text too (the text search's own path).
    const named = await search({ query: "fake offer", networks: [networkId], selectedTab: "payoutIncreased" });
    expect(named.offers.map((o) => o.id)).toEqual([two.id]);

    // The same view from a page address: the row, its mark and its words.
    expect(offerSearchFromUrl(new URLSearchParams("selectedTab=payoutIncreased")).selectedTab).toBe("payoutIncreased");
    const page = await t.app.inject(`/?selectedTab=payoutIncreased&networks=${networkId}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Fake Offer 2 renamed");
    expect(page.body).not.toContain(`data-offer-id="${three.id}"`);
    expect(page.body).toMatch(/data-testid="payout-change" data-direction="up"/);
    expect(page.body).toMatch(/Payout up \$5\.00 since \d{1,2} \w{3}/);
    expect(page.body).toContain('aria-current="page"');
    expect(page.body).toContain("Payout increased");

    // Older changes fall out of both views and lose their marks.
    await t.db.query(sql`
      UPDATE offers SET payout_changed_at = now() - interval '8 days', updated_at = now() - interval '8 days'
      WHERE network_id = ${networkId}`);
    t.app.services.offers.catalogueChanged();
    expect((await search({ networks: [networkId], selectedTab: "payoutIncreased" })).offers).toEqual([]);
    expect((await search({ networks: [networkId], selectedTab: "updated" })).offers).toEqual([]);
    // No payout anywhere rose lately (seeded offers never changed): the view says so.
    const empty = await t.app.inject("/?selectedTab=payoutIncreased");
    expect(empty.body).toContain("No offer&#x27;s payout rose in the last 7 days.");
    const all = await search({ networks: [networkId] });
    expect(all.offers.length).toBeGreaterThan(0);
    for (const o of all.offers) expect(o).toMatchObject({ isNew: false, payoutChange: null });
  });

  it("new offers carry the New mark; unknown views are refused with the list of views", async () => {
    const fresh = await startFakeEverflow({ apiKey: API_KEY, count: 2 });
    try {
      const { networkId: freshNetwork, sourceId: freshSource } = await addSource(t.db, t.app.services.secrets, {
        url: fresh.url,
      });
      await t.app.services.offerSync.run(freshSource);
      const found = await search({ networks: [freshNetwork], selectedTab: "updated" });
      expect(found.offers).toHaveLength(2);
      for (const o of found.offers) expect(o).toMatchObject({ isNew: true, payoutChange: null });
      const page = await t.app.inject(`/?selectedTab=newest&networks=${freshNetwork}`);
      expect(page.body.match(/data-testid="new-offer"/g)).toHaveLength(2);
    } finally {
      await fresh.close();
    }
    const bad = await t.app.inject({ method: "POST", url: "/api/offers/search", payload: { selectedTab: "recent" } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(
      "selectedTab must be one of topOffers, newest, highestPayout, payPerCall, mobile, updated, payoutIncreased",
    );
  });

  it("a console edit of the payout records the change like a sync; an edit of anything else does not", async () => {
    const [{ id: consoleNetwork }] = await t.db.query<{ id: number }>(
      sql`INSERT INTO networks (slug, name) VALUES ('console-changes', 'Console Changes') RETURNING id`,
    );
    const form = {
      name: "Quillwort Insurance Quotes",
      networkId: consoleNetwork,
      description: "Car insurance quotes.",
      payoutType: "CPL",
      payoutAmount: 20,
      currency: "USD",
      countries: ["US"],
      categoryIds: [],
      status: "active",
    };
    const put = (id: number, payload: object) =>
      t.app.inject({ method: "PUT", url: `/api/admin/offers/${id}`, headers: admin.headers, payload });
    const created = await t.app.inject({
      method: "POST",
      url: "/api/admin/offers",
      headers: admin.headers,
      payload: form,
    });
    expect(created.statusCode, created.body).toBe(201);
    const offer = created.json<AdminOffer>();
    const raised = await put(offer.id, { ...form, payoutAmount: 26.5, updatedAt: offer.updatedAt });
    expect(raised.statusCode, raised.body).toBe(200);
    const up = await changeOf(offer.id);
    expect(up).toMatchObject({ previousUsd: 20, previousPercent: null });
    expect(up.changedAt).not.toBeNull();
    const [row] = (await search({ networks: [consoleNetwork], selectedTab: "payoutIncreased" })).offers;
    expect(row).toMatchObject({ id: offer.id, isNew: true, payoutChange: { direction: "up", usd: 6.5 } });

    const described = await put(offer.id, {
      ...form,
      payoutAmount: 26.5,
      description: "Car and home insurance quotes.",
      updatedAt: raised.json<AdminOffer>().updatedAt,
    });
    expect(described.statusCode, described.body).toBe(200);
    expect(await changeOf(offer.id)).toEqual(up);

    const lowered = await put(offer.id, {
      ...form,
      payoutAmount: 15,
      updatedAt: described.json<AdminOffer>().updatedAt,
    });
    expect(lowered.statusCode, lowered.body).toBe(200);
    expect(await changeOf(offer.id)).toMatchObject({ previousUsd: 26.5 });
    expect((await search({ networks: [consoleNetwork], selectedTab: "payoutIncreased" })).offers).toEqual([]);
    const [down] = (await search({ networks: [consoleNetwork] })).offers;
    expect(down.payoutChange).toMatchObject({ direction: "down", usd: 11.5 });
  });
});

describe("an offer its source no longer lists", () => {
  it("is retired after N runs: out of search, its page says so and lists the same offer at another network", async () => {
    const mine = await startFakeEverflow({ apiKey: API_KEY, count: 3 });
    const theirs = await startFakeEverflow({ apiKey: API_KEY, count: 3 });
    try {
      const { sourceId, networkId } = await addSource(t.db, t.app.services.secrets, {
        url: mine.url,
        retireAfterRuns: 2,
      });
      // The other network lists offer 1 under its own name for the same landing page.
      const { sourceId: otherSource } = await addSource(t.db, t.app.services.secrets, { url: theirs.url });
      theirs.state.overrides.set(1, { ...everflowOffer(1), name: "FAKE OFFER 1 - US/CA (CPA)" });
      await t.app.services.offerSync.run(sourceId);
      await t.app.services.offerSync.run(otherSource);
      const gone = await offerOf(t.db, sourceId, 1);
      const elsewhere = await offerOf(t.db, otherSource, 1);

      mine.state.removed.add(1);
      expect(await t.app.services.offerSync.run(sourceId)).toMatchObject({ retired: 0 });
      expect((await offerOf(t.db, sourceId, 1)).status).toBe("active");
      expect(await t.app.services.offerSync.run(sourceId)).toMatchObject({ retired: 1 });
      expect((await offerOf(t.db, sourceId, 1)).status).toBe("retired");

      const listed = await search({ networks: [networkId] });
      expect(listed.offers.map((o) => o.id)).not.toContain(gone.id);
      const page = await t.app.inject(`/offer/${gone.id}/${gone.slug}`);
      expect(page.statusCode).toBe(410);
      expect(page.body).toMatch(/Fake Offer 1(<!-- -->)? is no longer listed/);
      expect(page.body).toMatch(/Fake Offer 1 is no longer available at Fake Network [\w-]+\./);
      expect(page.body).toContain('data-testid="same-offer-table"');
      expect(page.body).toContain(`href="/offer/${elsewhere.id}/${elsewhere.slug}"`);
      // Its API answer stays the 410 it was.
      expect((await t.app.inject(`/api/offers/${gone.id}/${gone.slug}`)).statusCode).toBe(410);
    } finally {
      await mine.close();
      await theirs.close();
    }
  });
});

describe("the same product at several networks", () => {
  const keyOf = async (name: string) =>
    (await t.db.query<{ key: string }>(sql`SELECT oa_product_name(${name}) AS key`))[0].key;

  it("keys names without the networks' notes: brackets, trailing geos and payout models", async () => {
    const cases: [string, string][] = [
      ["Acme Solar - US (CPL)", "acme solar"],
      ["ACME Solar [Mobile]", "acme solar"],
      ["Acme Solar CPA", "acme solar"],
      ["Acme Solar: CPL", "acme solar"],
      ["Acme Solar - United Kingdom", "acme solar"],
      ["Acme Solar (SOI) - US, CA - CPL", "acme solar"],
      ["Acme Solar - UK/IE", "acme solar"],
      // Variants of a product keep their suffix; a hyphen inside a word is no dash.
      ["Acme Solar - Free Trial", "acme solar free trial"],
      ["Acme - DOI", "acme doi"],
      ["Wi-Fi Finder", "wi fi finder"],
    ];
    for (const [name, key] of cases) expect(await keyOf(name), name).toBe(key);
  });

  it("matches by name key and landing domain, or by overlapping geos when a listing has no domain", async () => {
    const listing = async (name: string, domain: string | null, countries: string[]) => {
      const slug = `zephyrix-${Math.random().toString(36).slice(2, 8)}`;
      const [network] = await t.db.query<{ id: number }>(
        sql`INSERT INTO networks (slug, name) VALUES (${slug}, ${`Network ${slug}`}) RETURNING id`,
      );
      const [offer] = await t.db.query<{ id: number; slug: string }>(sql`
        INSERT INTO offers (slug, network_id, name, payout_type, payout_amount, payout_usd, landing_domain, countries)
        VALUES (${slug}, ${network.id}, ${name}, 'CPL', 10, 10, ${domain}, ${array(countries)}::text[]) RETURNING id, slug`);
      return offer;
    };
    const a = await listing("Zephyrix Solar - US (CPL)", "zephyrix.com", ["US", "CA"]);
    const b = await listing("ZEPHYRIX Solar [Mobile]", "Zephyrix.com", ["DE"]);
    const otherDomain = await listing("Zephyrix Solar CPA", "zephyrix-solar.net", ["US"]);
    const noDomainSameGeo = await listing("Zephyrix Solar: US", null, ["US"]);
    const noDomainOtherGeo = await listing("Zephyrix Solar", null, ["FR"]);
    const variant = await listing("Zephyrix Solar - Free Trial", "zephyrix.com", ["US"]);

    const same = async (offer: { id: number; slug: string }) => {
      const res = await t.app.inject(`/api/offers/${offer.id}/${offer.slug}`);
      expect(res.statusCode, res.body).toBe(200);
      return res
        .json<OfferPage>()
        .sameOffer.map((o) => o.id)
        .sort((x, y) => x - y);
    };
    const ids = (...offers: { id: number }[]) => offers.map((o) => o.id).sort((x, y) => x - y);
    // Same domain (any naming), or no domain with a shared geo; never another domain or a variant.
    expect(await same(a)).toEqual(ids(a, b, noDomainSameGeo));
    expect(await same(b)).toEqual(ids(a, b));
    expect(await same(otherDomain)).toEqual(ids(otherDomain, noDomainSameGeo));
    expect(await same(noDomainSameGeo)).toEqual(ids(a, otherDomain, noDomainSameGeo));
    expect(await same(noDomainOtherGeo)).toEqual(ids(noDomainOtherGeo));
    expect(await same(variant)).toEqual(ids(variant));
  });
});
