// Demo data: a deterministic, realistic directory (verticals, networks, offers,
// traffic sources, house ads) for development, demos and load tests.
//
// The same seed always gives the same rows: everything random comes from a
// seeded generator and dates count back from a fixed reference date. Offers are
// products sold by several networks under the same name and landing domain, so
// that the generated product_key groups them for payout comparison. Offers are
// generated and inserted one batch at a time, so a million of them never sit in
// memory together.
import { sql, type Database, type Queryable } from "#db/client.ts";
import { syncReferenceData } from "#core/reference/sync.ts";
import { COUNTRIES } from "#core/reference/countries.ts";
import { USD_RATES, usdValue } from "#core/reference/currencies.ts";
import { numberedSlug, slugify } from "#core/offers/slugs.ts";
import {
  AD_FORMATS,
  BRAND_PARTS,
  BRAND_TAILS,
  COMMISSION_TYPES,
  DEFAULT_PAYOUT_RANGES,
  GEO_PRESETS,
  HOUSE_ADS,
  LANDING_PATHS,
  MINIMUM_DEPOSITS,
  MINIMUM_PAYMENTS,
  NAME_PAYOUT_HINTS,
  NETWORK_FIRST,
  NETWORK_INTROS,
  NETWORK_PERKS,
  NETWORK_SECOND,
  NETWORK_SUFFIX,
  PAYMENT_METHODS,
  PAYMENT_TERMS,
  PRICING_MODELS,
  SITE_LINKS,
  TLDS,
  TRACKING_PLATFORMS,
  TRAFFIC_FIRST,
  TRAFFIC_SECOND,
  TRAFFIC_SOURCE_INTROS,
  TRAFFIC_TYPES,
  VERTICALS,
  type PayoutType,
  type Vertical,
} from "./data.ts";
import { createRandom, type Random } from "./random.ts";
import { seedDemoReviews } from "./reviews.ts";

export type SeedDemoOptions = {
  /** Site identifier: the site row and every network's main property. */
  siteId: string;
  offers?: number;
  networks?: number;
  trafficSources?: number;
  /** Demo reviews (with their reviewer accounts); 0 for none. */
  reviews?: number;
  seed?: number;
  log?: (msg: string) => void;
};

export type SeedDemoCounts = {
  networks: number;
  offers: number;
  trafficSources: number;
  categories: number;
  reviews: number;
};

export const DEMO_DEFAULTS = { offers: 20_000, networks: 300, trafficSources: 60, reviews: 1500, seed: 2009 } as const;

/** Second site identifier some networks are also listed on. */
const SISTER_SITE = "callatlas";
/** Dates count back from here, never from the clock. */
const REFERENCE_TIME = Date.UTC(2026, 10, 1);
const DAY_MS = 86_400_000;
const OFFER_BATCH = 1000;
const ROW_BATCH = 2000;

/** True when no network exists yet (a fresh or emptied database). */
export async function isDatabaseEmpty(db: Queryable): Promise<boolean> {
  const rows = await db.query<{ found: boolean }>(sql`SELECT EXISTS (SELECT 1 FROM networks) AS found`);
  return !rows[0].found;
}

export async function seedDemoData(db: Database, options: SeedDemoOptions): Promise<SeedDemoCounts> {
  const offers = count(options.offers, DEMO_DEFAULTS.offers, "offers");
  const networks = count(options.networks, DEMO_DEFAULTS.networks, "networks");
  const trafficSources = count(options.trafficSources, DEMO_DEFAULTS.trafficSources, "trafficSources");
  const seed = options.seed ?? DEMO_DEFAULTS.seed;
  if (!Number.isSafeInteger(seed)) throw new Error(`seed must be an integer, got ${seed}`);
  if (offers > 0 && networks === 0) throw new Error("offers need at least one network");
  if (offers + 500_000 > 2_147_483_647) throw new Error("too many offers for integer legacy ids");
  const log = options.log ?? (() => {});
  const siteId = options.siteId;

  // Independent streams: changing the offer count leaves networks and traffic sources as they were.
  const root = createRandom(seed);
  const networkRng = root.fork();
  const trafficRng = root.fork();
  const offerRng = root.fork();
  const reviewRng = root.fork();
  const reviews = count(options.reviews, DEMO_DEFAULTS.reviews, "reviews");

  const counts = await db.transaction(async (tx) => {
    await syncReferenceData(tx);
    await tx.query(sql`
      INSERT INTO sites (id, name, links) VALUES (${siteId}, 'OfferAtlas', ${JSON.stringify(SITE_LINKS)}::jsonb)
      ON CONFLICT (id) DO NOTHING`);

    const categoryIds = await insertCategories(tx);
    log(`categories: ${categoryIds.length}`);

    const networkSeeds = buildNetworks(networkRng, networks, siteId);
    const networkIds = await insertNetworks(tx, networkSeeds);
    log(`networks: ${networkSeeds.length}`);

    await insertTrafficSources(tx, buildTrafficSources(trafficRng, trafficSources));
    log(`traffic sources: ${trafficSources}`);

    await insertHouseAds(tx);

    let inserted = 0;
    let batch: OfferRow[] = [];
    const flush = async () => {
      // Interleave products inside the batch so that one product's offers are not all neighbours.
      const rows = offerRng.shuffle(batch);
      rows.forEach((row, i) => {
        row.ord = i;
        row.legacy_id = 500_000 + inserted + i;
      });
      await insertOffers(tx, rows);
      inserted += batch.length;
      if (inserted % 100_000 < OFFER_BATCH || inserted === offers) log(`offers: ${inserted}/${offers}`);
      batch = [];
    };
    for (const row of generateOffers(offerRng, offers, networkSeeds, networkIds, categoryIds)) {
      batch.push(row);
      if (batch.length >= OFFER_BATCH) await flush();
    }
    if (batch.length) await flush();

    // Counts from what was actually inserted (active offers only).
    await tx.query(sql`
      UPDATE networks n SET offer_count = c.active
      FROM (SELECT n2.id, count(o.id)::int AS active
            FROM networks n2 LEFT JOIN offers o ON o.network_id = n2.id AND o.status = 'active'
            GROUP BY n2.id) c
      WHERE c.id = n.id AND n.offer_count IS DISTINCT FROM c.active`);
    await tx.query(sql`
      UPDATE network_properties p SET offer_count = n.offer_count
      FROM networks n WHERE n.id = p.network_id AND p.offer_count IS DISTINCT FROM n.offer_count`);

    const reviewed = await seedDemoReviews(tx, reviewRng, { siteId, networkIds, reviews, reference: REFERENCE_TIME });
    if (reviewed.reviews) log(`reviews: ${reviewed.reviews} by ${reviewed.reviewers} reviewers`);

    return {
      networks: networkSeeds.length,
      offers: inserted,
      trafficSources,
      categories: categoryIds.length,
      reviews: reviewed.reviews,
    };
  });
  // As after any bulk import: vacuumed, so walks of the covering popularity
  // index skip the table (migration 0004), and analysed, so plans fit the data.
  // Every table, not only the offers: each offer written updated its network's and
  // verticals' counts (migration 0027), and without a vacuum (autovacuum can be off)
  // every lookup of a network walked its dead versions, more of them the more offers
  // were seeded (a page's 20 rows read 1,371 buffers at 100,000 offers, 185 after).
  await db.execScript("VACUUM ANALYZE");
  return counts;
}

function count(value: number | undefined, fallback: number, name: string): number {
  const n = value ?? fallback;
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got ${value}`);
  return n;
}

// ---------------------------------------------------------------- helpers

const round2 = (n: number) => Math.round(n * 100) / 100;

/** A timestamp `days` (fractional) before the reference date, whole seconds. */
const daysAgo = (days: number) => new Date(Math.floor((REFERENCE_TIME - days * DAY_MS) / 1000) * 1000).toISOString();

const uniformIn = (rng: Random, min: number, max: number) => min + (max - min) * rng.next();
/** Log-uniform: small values as likely per factor as large ones. */
const logUniform = (rng: Random, min: number, max: number) => Math.exp(uniformIn(rng, Math.log(min), Math.log(max)));

/** Draws names until one has an unused slug; numbered after many collisions. */
function uniqueName(rng: Random, taken: Set<string>, make: (rng: Random) => string): string {
  const claim = (name: string) => {
    const slug = slugify(name);
    if (!slug || taken.has(slug)) return false;
    taken.add(slug);
    return true;
  };
  for (let attempt = 0; attempt < 60; attempt++) {
    const name = make(rng);
    if (claim(name)) return name;
  }
  const base = make(rng);
  for (let n = 2; ; n++) {
    if (claim(`${base} ${n}`)) return `${base} ${n}`;
  }
}

const overlaps = (a: string, b: string) =>
  a.toLowerCase().startsWith(b.toLowerCase()) || b.toLowerCase().startsWith(a.toLowerCase());

const KNOWN_COUNTRIES = new Set(COUNTRIES.map((c) => c.code));
const COUNTRY_NAMES = new Map(COUNTRIES.map((c) => [c.code, c.name]));
const ALL_COUNTRY_CODES = COUNTRIES.map((c) => c.code);
const GEO_CHOICES = GEO_PRESETS.map(
  ([codes, label, weight]) => [{ codes: codes.filter((c) => KNOWN_COUNTRIES.has(c)), label }, weight] as const,
).filter(([g]) => g.codes.length > 0);
const US_GEOS = GEO_CHOICES.filter(([g]) => g.label === "US" || g.label === "US/CA");

// ---------------------------------------------------------------- categories

async function insertCategories(tx: Queryable): Promise<number[]> {
  const rows = VERTICALS.map((v, i) => ({ slug: slugify(v.name), name: v.name, top: v.top ?? false, sort_order: i }));
  await tx.query(sql`
    INSERT INTO categories (slug, name, top, sort_order)
    SELECT x.slug, x.name, x.top, x.sort_order
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(slug text, name text, top boolean, sort_order int)
    ON CONFLICT (slug) DO NOTHING`);
  const found = await tx.query<{ id: number; slug: string }>(sql`SELECT id, slug FROM categories`);
  const bySlug = new Map(found.map((r) => [r.slug, r.id]));
  // Index i is VERTICALS[i].
  return rows.map((r) => {
    const id = bySlug.get(r.slug);
    if (id === undefined) throw new Error(`category ${r.slug} is missing`);
    return id;
  });
}

// ---------------------------------------------------------------- networks

type NetworkSeed = {
  name: string;
  slug: string;
  domain: string;
  /** Relative share of offers; 0 for networks without offers. */
  weight: number;
  /** Vertical indices the network specialises in (more of their offers go there). */
  focus: number[];
  row: Record<string, unknown>;
  properties: { identifier: string; joining_link: string; paid_account: boolean }[];
};

function buildNetworks(rng: Random, total: number, siteId: string): NetworkSeed[] {
  const taken = new Set<string>();
  const makeName = (r: Random) => {
    const a = r.pick(NETWORK_FIRST);
    let b = r.pick(NETWORK_SECOND);
    while (overlaps(a, b)) b = r.pick(NETWORK_SECOND);
    let c = r.pick(NETWORK_SUFFIX);
    while (overlaps(b, c)) c = r.pick(NETWORK_SUFFIX);
    const form = r.next();
    if (form < 0.55) return `${a}${b} ${c}`;
    if (form < 0.8) return `${a}${b}`;
    return `${a} ${c}`;
  };
  // Exact proportions for the flags the product shows, so small seeds still have some.
  const order = rng.shuffle(Array.from({ length: total }, (_, i) => i));
  const featured = new Set(order.slice(0, Math.round(total * 0.08)));
  const paid = new Set(rng.shuffle(order).slice(0, Math.round(total * 0.2)));
  const zeroOffers = new Set(rng.shuffle(order).slice(0, total >= 10 ? Math.max(1, Math.round(total / 30)) : 0));
  // Offer share follows a power law over a random ranking: a few big networks, a long tail.
  const rank = rng.shuffle(Array.from({ length: total }, (_, i) => i));
  const sister = SISTER_SITE === siteId ? "offeratlas" : SISTER_SITE;

  const out: NetworkSeed[] = [];
  for (let i = 0; i < total; i++) {
    const name = uniqueName(rng, taken, makeName);
    const slug = slugify(name);
    const domain = `${slug.replace(/-/g, "")}.${rng.weighted([
      ["com", 80],
      ["net", 10],
      ["io", 6],
      ["co", 4],
    ] as const)}`;
    const focus = rng.sample(
      VERTICALS.map((_, v) => v),
      rng.int(2, 5),
    );
    const year = 2008 + rng.int(0, 16);
    const intro = rng
      .pick(NETWORK_INTROS)
      .replace("{name}", name)
      .replace("{year}", String(year))
      .replace("{verticals}", listText(focus.map((v) => VERTICALS[v].name)));
    const description = [intro, ...rng.sample(NETWORK_PERKS, rng.int(1, 3))].join(" ");
    const commission = rng
      .sample(COMMISSION_TYPES, rng.int(1, 4))
      .sort((x, y) => COMMISSION_TYPES.indexOf(x) - COMMISSION_TYPES.indexOf(y));
    const methods = rng
      .sample(PAYMENT_METHODS, rng.int(2, 5))
      .sort((x, y) => PAYMENT_METHODS.indexOf(x) - PAYMENT_METHODS.indexOf(y));
    const createdDaysAgo = uniformIn(rng, 120, 3650);
    const properties = [
      {
        identifier: siteId,
        joining_link: `https://affiliates.${domain}/signup?ref=${siteId}`,
        paid_account: paid.has(i),
      },
    ];
    if (rng.chance(0.3)) {
      properties.push({
        identifier: sister,
        joining_link: `https://affiliates.${domain}/signup?ref=${sister}`,
        paid_account: rng.chance(0.1),
      });
    }
    out.push({
      name,
      slug,
      domain,
      weight: zeroOffers.has(i) ? 0 : 1 / Math.pow(rank[i] + 1, 0.9),
      focus,
      properties,
      row: {
        legacy_id: 1000 + i,
        slug,
        name,
        description,
        website: `https://www.${domain}`,
        featured: featured.has(i),
        payment_terms: rng.weighted(PAYMENT_TERMS),
        payment_methods: methods,
        minimum_payment: rng.pick(MINIMUM_PAYMENTS),
        tracking_platform: rng.weighted(TRACKING_PLATFORMS),
        commission_types: commission,
        created_at: daysAgo(createdDaysAgo),
        updated_at: daysAgo(uniformIn(rng, 0, createdDaysAgo)),
      },
    });
  }
  return out;
}

function listText(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

async function insertNetworks(tx: Queryable, networks: NetworkSeed[]): Promise<number[]> {
  const ids = new Map<string, number>();
  for (let start = 0; start < networks.length; start += ROW_BATCH) {
    const chunk = networks.slice(start, start + ROW_BATCH);
    const rows = await tx.query<{ id: number; slug: string }>(sql`
      INSERT INTO networks (legacy_id, slug, name, description, logo_url, website, featured, payment_terms,
        payment_methods, minimum_payment, tracking_platform, commission_types, status, created_at, updated_at)
      SELECT x.legacy_id, x.slug, x.name, x.description, NULL, x.website, x.featured, x.payment_terms,
        ARRAY(SELECT jsonb_array_elements_text(x.payment_methods)), x.minimum_payment, x.tracking_platform,
        ARRAY(SELECT jsonb_array_elements_text(x.commission_types)), 'active', x.created_at, x.updated_at
      FROM jsonb_to_recordset(${JSON.stringify(chunk.map((n) => n.row))}::jsonb) AS x(
        legacy_id int, slug text, name text, description text, website text, featured boolean, payment_terms text,
        payment_methods jsonb, minimum_payment numeric, tracking_platform text, commission_types jsonb,
        created_at timestamptz, updated_at timestamptz)
      ORDER BY x.legacy_id
      RETURNING id, slug`);
    for (const r of rows) ids.set(r.slug, r.id);
    const properties = chunk.flatMap((n) => n.properties.map((p) => ({ ...p, slug: n.slug })));
    await tx.query(sql`
      INSERT INTO network_properties (network_id, identifier, joining_link, paid_account)
      SELECT n.id, x.identifier, x.joining_link, x.paid_account
      FROM jsonb_to_recordset(${JSON.stringify(properties)}::jsonb)
        AS x(slug text, identifier text, joining_link text, paid_account boolean)
      JOIN networks n ON n.slug = x.slug`);
  }
  return networks.map((n) => {
    const id = ids.get(n.slug);
    if (id === undefined) throw new Error(`network ${n.slug} was not inserted`);
    return id;
  });
}

// ---------------------------------------------------------------- traffic sources

function buildTrafficSources(rng: Random, total: number): Record<string, unknown>[] {
  const taken = new Set<string>();
  const makeName = (r: Random) => {
    const a = r.pick(TRAFFIC_FIRST);
    let b = r.pick(TRAFFIC_SECOND);
    while (overlaps(a, b)) b = r.pick(TRAFFIC_SECOND);
    return `${a}${b}`;
  };
  const featured = new Set(rng.shuffle(Array.from({ length: total }, (_, i) => i)).slice(0, Math.round(total / 6)));
  const rows: Record<string, unknown>[] = [];
  for (let i = 0; i < total; i++) {
    const name = uniqueName(rng, taken, makeName);
    const slug = slugify(name);
    const formats = rng.sample(
      AD_FORMATS,
      rng.weighted([
        [1, 30],
        [2, 35],
        [3, 20],
        [4, 15],
      ] as const),
    );
    formats.sort((x, y) => AD_FORMATS.indexOf(x) - AD_FORMATS.indexOf(y));
    const pricing = rng.sample(PRICING_MODELS, rng.int(1, 3));
    pricing.sort((x, y) => PRICING_MODELS.indexOf(x) - PRICING_MODELS.indexOf(y));
    const geos = rng.chance(0.4) ? ALL_COUNTRY_CODES.slice() : pickGeo(rng, false).codes.slice();
    const intro = rng
      .pick(TRAFFIC_SOURCE_INTROS)
      .replace("{name}", name)
      .replace("{formats}", listText(formats.map((f) => f.toLowerCase())));
    const deposit = rng.pick(MINIMUM_DEPOSITS);
    const description = `${intro} ${
      deposit === 0 ? "No minimum deposit." : `Minimum deposit is $${deposit}.`
    } Pricing: ${pricing.join(", ")}.`;
    const createdDaysAgo = uniformIn(rng, 60, 2500);
    rows.push({
      legacy_id: 2000 + i,
      slug,
      name,
      description,
      website: `https://${slug.replace(/-/g, "")}.${rng.weighted([
        ["com", 75],
        ["net", 10],
        ["io", 15],
      ] as const)}`,
      featured: featured.has(i),
      ad_formats: formats,
      pricing_models: pricing,
      minimum_deposit: deposit,
      geos,
      created_at: daysAgo(createdDaysAgo),
      updated_at: daysAgo(uniformIn(rng, 0, createdDaysAgo)),
    });
  }
  return rows;
}

async function insertTrafficSources(tx: Queryable, rows: Record<string, unknown>[]): Promise<void> {
  for (let start = 0; start < rows.length; start += ROW_BATCH) {
    const chunk = rows.slice(start, start + ROW_BATCH);
    await tx.query(sql`
      INSERT INTO traffic_sources (legacy_id, slug, name, description, website, logo_url, featured, ad_formats,
        pricing_models, minimum_deposit, geos, status, created_at, updated_at)
      SELECT x.legacy_id, x.slug, x.name, x.description, x.website, NULL, x.featured,
        ARRAY(SELECT jsonb_array_elements_text(x.ad_formats)), ARRAY(SELECT jsonb_array_elements_text(x.pricing_models)),
        x.minimum_deposit, ARRAY(SELECT jsonb_array_elements_text(x.geos)), 'active', x.created_at, x.updated_at
      FROM jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) AS x(
        legacy_id int, slug text, name text, description text, website text, featured boolean, ad_formats jsonb,
        pricing_models jsonb, minimum_deposit numeric, geos jsonb, created_at timestamptz, updated_at timestamptz)
      ORDER BY x.legacy_id`);
  }
}

// ---------------------------------------------------------------- house ads

async function insertHouseAds(tx: Queryable): Promise<void> {
  const rows = HOUSE_ADS.map((a) => ({
    slot_size: a.slot,
    headline: a.headline,
    body: a.body,
    target_url: a.target,
    weight: a.weight,
  }));
  await tx.query(sql`
    INSERT INTO house_ads (site_id, slot_size, headline, body, image_url, target_url, weight, active, created_at)
    SELECT NULL, x.slot_size, x.headline, x.body, NULL, x.target_url, x.weight, true, ${daysAgo(30)}::timestamptz
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      AS x(slot_size text, headline text, body text, target_url text, weight int)`);
}

// ---------------------------------------------------------------- offers

type OfferRow = {
  ord?: number;
  legacy_id: number;
  slug: string;
  network_id: number;
  external_id: string;
  name: string;
  description: string;
  preview_url: string;
  landing_domain: string;
  payout_amount: number | null;
  currency: string;
  payout_type: PayoutType;
  payout_percent: number | null;
  payout_usd: number | null;
  countries: string[];
  category_ids: number[];
  mobile: boolean;
  ppc: boolean;
  allowed_traffic: string[];
  restricted_traffic: string[];
  sponsored: boolean;
  status: "active" | "paused" | "expired";
  popularity: number;
  created_at: string;
  updated_at: string;
};

type Product = {
  name: string;
  slug: string;
  domain: string;
  vertical: Vertical;
  categoryIds: number[];
  countries: readonly string[];
  currency: string;
  payoutType: PayoutType;
  /** Base payout in USD, null when paid as a percent only. */
  usd: number | null;
  percent: number | null;
  mobile: boolean;
  allowed: string[];
  restricted: string[];
  popularity: number;
  /** Days before the reference date the product launched; its offers are newer. */
  launchedDaysAgo: number;
  blurb: string;
};

type Geo = { codes: readonly string[]; label: string | null };

function pickGeo(rng: Random, usFocused: boolean): Geo {
  if (usFocused && rng.chance(0.9)) return rng.weighted(US_GEOS.length ? US_GEOS : GEO_CHOICES);
  if (rng.chance(0.04)) {
    // An ad-hoc list: the US plus a handful of other countries.
    const extra = rng.sample(ALL_COUNTRY_CODES, rng.int(2, 12)).filter((c) => c !== "US");
    return { codes: ["US", ...extra], label: null };
  }
  return rng.weighted(GEO_CHOICES);
}

/** Local currency for some single-market products; most offers pay in USD. */
function pickCurrency(rng: Random, geo: Geo): string {
  const local: Record<string, readonly [string, number]> = {
    UK: ["GBP", 0.7],
    "UK/IE": ["GBP", 0.6],
    DACH: ["EUR", 0.65],
    "FR/BE/CH": ["EUR", 0.65],
    EU: ["EUR", 0.7],
    ES: ["EUR", 0.7],
    IT: ["EUR", 0.7],
    Benelux: ["EUR", 0.7],
    Nordics: ["EUR", 0.4],
    CA: ["CAD", 0.7],
    "AU/NZ": ["AUD", 0.7],
    CH: ["CHF", 0.8],
    JP: ["JPY", 0.8],
    "Tier 1": ["EUR", 0.05],
  };
  const rule = geo.label ? local[geo.label] : undefined;
  if (rule && rng.chance(rule[1])) return rule[0];
  return "USD";
}

const VERTICAL_WEIGHTS = VERTICALS.map((v, i) => [i, v.weight] as const);
const TIER_WEIGHTS = [
  [1, 22],
  [2, 20],
  [3, 18],
  [4, 15],
  [5, 12],
  [6, 9],
  [7, 2],
  [8, 2],
] as const;

/** Per-vertical cumulative network weights, for drawing which networks run a product. */
function networkPickers(networks: NetworkSeed[]) {
  return VERTICALS.map((_, v) => {
    const cumulative = new Float64Array(networks.length);
    let sum = 0;
    networks.forEach((n, i) => {
      sum += n.weight * (n.focus.includes(v) ? 4 : 1);
      cumulative[i] = sum;
    });
    return { cumulative, sum };
  });
}

function drawNetworks(rng: Random, picker: { cumulative: Float64Array; sum: number }, wanted: number): number[] {
  const chosen: number[] = [];
  if (picker.sum <= 0) return chosen;
  for (let attempt = 0; chosen.length < wanted && attempt < wanted * 30; attempt++) {
    const r = rng.next() * picker.sum;
    let lo = 0;
    let hi = picker.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (picker.cumulative[mid] > r) hi = mid;
      else lo = mid + 1;
    }
    if (!chosen.includes(lo)) chosen.push(lo);
  }
  return chosen;
}

function* generateOffers(
  rng: Random,
  total: number,
  networks: NetworkSeed[],
  networkIds: number[],
  categoryIds: number[],
): Generator<OfferRow> {
  if (total === 0) return;
  const pickers = networkPickers(networks);
  const withOffers = networks.filter((n) => n.weight > 0).length;
  const maxWeight = networks.reduce((max, n) => Math.max(max, n.weight), 0);
  const productSlugs = new Set<string>();
  const brandKeys = new Set<string>();
  const payCallCategory = categoryIds[VERTICALS.findIndex((v) => v.name === "Pay Per Call")];
  let emitted = 0;

  while (emitted < total) {
    const v = rng.weighted(VERTICAL_WEIGHTS);
    const vertical = VERTICALS[v];
    const brand = makeBrand(rng, vertical, brandKeys);
    const domain = `${brand.toLowerCase().replace(/[^a-z0-9]/g, "")}.${rng.weighted(TLDS)}`;
    const templates = rng.sample(
      vertical.templates,
      rng.weighted([
        [1, 55],
        [2, 30],
        [3, 15],
      ] as const),
    );
    for (const template of templates) {
      const product = makeProduct(
        rng,
        vertical,
        v,
        brand,
        domain,
        template,
        productSlugs,
        categoryIds,
        payCallCategory,
      );
      if (!product) continue;
      const tier = Math.min(rng.weighted(TIER_WEIGHTS), withOffers);
      // The same product at several networks: the first listing has the product's slug, the
      // others the next free numbered one (slugs are unique, core/offers/slugs.ts).
      let listings = 0;
      for (const n of drawNetworks(rng, pickers[v], tier)) {
        if (emitted >= total) return;
        const slug = listings++ === 0 ? product.slug : numberedSlug(product.slug, productSlugs);
        productSlugs.add(slug);
        yield makeOffer(rng, { ...product, slug }, networks[n], networkIds[n], maxWeight);
        emitted++;
      }
    }
  }
}

function makeBrand(rng: Random, vertical: Vertical, taken: Set<string>): string {
  const [first, second] = BRAND_PARTS[vertical.theme];
  const make = (r: Random) => {
    const a = r.pick(first);
    let b = r.pick(second);
    while (overlaps(a, b)) b = r.pick(second);
    return r.chance(0.25) ? `${a}${b}${r.pick(BRAND_TAILS)}` : `${a}${b}`;
  };
  // Brand keys are compact so that two brands never share a landing domain.
  for (let attempt = 0; attempt < 40; attempt++) {
    const brand = make(rng);
    const key = brand.toLowerCase();
    if (!taken.has(key)) {
      taken.add(key);
      return brand;
    }
  }
  for (let n = 2; ; n++) {
    const brand = `${make(rng)}${n}`;
    if (!taken.has(brand.toLowerCase())) {
      taken.add(brand.toLowerCase());
      return brand;
    }
  }
}

function makeProduct(
  rng: Random,
  vertical: Vertical,
  v: number,
  brand: string,
  domain: string,
  template: string,
  taken: Set<string>,
  categoryIds: number[],
  payCallCategory: number,
): Product | null {
  const geo = pickGeo(rng, vertical.usFocused ?? false);
  let name = template.replace("{b}", brand);
  if (geo.label && rng.chance(0.35)) name = `${name} - ${geo.label}`;
  const slug = slugify(name);
  if (!slug || taken.has(slug)) return null;
  taken.add(slug);

  const hinted = NAME_PAYOUT_HINTS.find(([pattern]) => pattern.test(template))?.[1];
  const [payoutType, , min, max] = hinted
    ? (vertical.payouts.find((rule) => rule[0] === hinted) ?? [hinted, 1, ...DEFAULT_PAYOUT_RANGES[hinted]])
    : rng.weighted(vertical.payouts.map((rule) => [rule, rule[1]] as const));
  let usd: number | null = null;
  let percent: number | null = null;
  if (payoutType === "CPS") {
    percent = uniformIn(rng, min, max);
    if (rng.chance(0.25)) {
      usd = percent * uniformIn(rng, 1.5, 4);
      percent = null;
    }
  } else if (payoutType === "revshare") {
    percent = uniformIn(rng, min, max);
    if (template.includes("Hybrid") || rng.chance(0.15)) usd = uniformIn(rng, 30, 200); // hybrid: CPA plus a share
  } else {
    usd = logUniform(rng, min, max);
  }

  const categories = [categoryIds[v]];
  if (payoutType === "pay-per-call" && categoryIds[v] !== payCallCategory) categories.push(payCallCategory);
  else if (vertical.related?.length && rng.chance(0.4)) {
    const related = VERTICALS.findIndex((x) => x.name === rng.pick(vertical.related!));
    if (related >= 0) categories.push(categoryIds[related]);
  }

  // Incentive traffic is the one most often restricted; apps, surveys and sweepstakes accept it more.
  const incentiveFriendly = ["Mobile Apps", "Gaming", "Survey", "Sweepstakes", "Lead Gen"].includes(vertical.name);
  const pool: string[] = TRAFFIC_TYPES.filter((t) => t !== "Incentive");
  const allowed = rng.sample(pool, rng.int(3, 7));
  if (rng.chance(incentiveFriendly ? 0.5 : 0.08)) allowed.push("Incentive");
  const rest: string[] = TRAFFIC_TYPES.filter((t) => !allowed.includes(t));
  const restricted = rng.sample(rest, rng.int(0, Math.min(3, rest.length)));
  if (!allowed.includes("Incentive") && !restricted.includes("Incentive") && rng.chance(0.7))
    restricted.push("Incentive");

  return {
    name,
    slug,
    domain,
    vertical,
    categoryIds: categories,
    countries: geo.codes,
    currency: pickCurrency(rng, geo),
    payoutType,
    usd,
    percent,
    mobile: rng.chance(vertical.mobile ?? 0.2),
    allowed,
    restricted,
    // Pareto-like: most products are modest, a few are very popular.
    popularity: Math.min(250_000, 5 * Math.pow(1 - rng.next(), -1.1)),
    launchedDaysAgo: uniformIn(rng, 30, 730),
    blurb: vertical.blurb,
  };
}

const TRAFFIC_ORDER = (a: string, b: string) =>
  TRAFFIC_TYPES.indexOf(a as (typeof TRAFFIC_TYPES)[number]) -
  TRAFFIC_TYPES.indexOf(b as (typeof TRAFFIC_TYPES)[number]);

/** Amount in `currency` for a USD value, rounded the way networks quote payouts. */
function localAmount(usd: number, currency: string): number {
  const value = usd / USD_RATES[currency];
  if (currency === "JPY") return Math.max(10, Math.round(value / 10) * 10);
  if (value >= 100) return Math.round(value);
  if (value >= 10) return Math.round(value * 2) / 2;
  return Math.max(0.01, round2(value));
}

const CONVERSION: Record<PayoutType, string> = {
  CPA: "Pays per completed action (purchase, deposit or approved signup).",
  CPL: "Pays per valid lead; no fake or duplicate submissions.",
  CPS: "Commission on every completed sale.",
  CPI: "Pays per unique install; the user must open the app.",
  CPC: "Pays per qualified click.",
  "pay-per-call": "Pays per inbound call over the minimum duration.",
  revshare: "Lifetime revenue share on every referred customer.",
};

function makeOffer(
  rng: Random,
  product: Product,
  network: NetworkSeed,
  networkId: number,
  maxWeight: number,
): OfferRow {
  // Each network negotiates its own payout: ±30% around the product's.
  let currency = product.currency;
  if (currency !== "USD" && rng.chance(0.15)) currency = "USD";
  const amount = product.usd === null ? null : localAmount(product.usd * uniformIn(rng, 0.7, 1.3), currency);
  const percent =
    product.percent === null
      ? null
      : Math.min(95, Math.max(1, Math.round(product.percent * uniformIn(rng, 0.8, 1.2) * 2) / 2));
  const payoutUsd = amount === null ? null : usdValue(amount, currency);

  let countries = product.countries;
  if (countries.length > 2 && rng.chance(0.15)) {
    const keep = new Set(rng.sample(countries.slice(1), rng.int(1, countries.length - 2)));
    countries = countries.filter((c, i) => i === 0 || keep.has(c));
  }

  let allowed = product.allowed;
  if (rng.chance(0.3)) {
    const extra = TRAFFIC_TYPES.filter((t) => !allowed.includes(t) && !product.restricted.includes(t));
    allowed = rng.chance(0.5) && extra.length ? [...allowed, rng.pick(extra)] : allowed.slice(0, -1);
  }

  const created = uniformIn(rng, 0, product.launchedDaysAgo);
  const status = rng.weighted([
    ["active", 960],
    ["paused", 35],
    ["expired", 5],
  ] as const);
  const sizeFactor = 0.4 + 1.6 * (network.weight / maxWeight);
  const geoText =
    countries.length <= 4
      ? ` for ${listText(countries.map((c) => COUNTRY_NAMES.get(c) ?? c))}`
      : ` available in ${countries.length} countries`;
  const restrictedText = product.restricted.length
    ? ` No ${listText(product.restricted.slice().sort(TRAFFIC_ORDER))} traffic.`
    : "";
  const landing = `${rng.pick(LANDING_PATHS)}${rng.int(1, 9)}`;

  return {
    legacy_id: 0, // numbered in insertion order by the caller
    slug: product.slug,
    network_id: networkId,
    external_id: String(rng.int(100, 99_999)),
    name: product.name,
    description: `${product.name} is ${product.blurb}${geoText}. ${CONVERSION[product.payoutType]}${restrictedText}`,
    preview_url: `https://${product.domain}/${landing}/`,
    landing_domain: product.domain,
    payout_amount: amount,
    currency,
    payout_type: product.payoutType,
    payout_percent: percent,
    payout_usd: payoutUsd,
    countries: countries.slice(),
    category_ids: product.categoryIds,
    mobile: product.mobile,
    ppc: product.payoutType === "pay-per-call",
    allowed_traffic: allowed.slice().sort(TRAFFIC_ORDER),
    restricted_traffic: product.restricted.slice().sort(TRAFFIC_ORDER),
    sponsored: rng.chance(0.03),
    status,
    popularity: Math.min(1_000_000_000, Math.floor(product.popularity * sizeFactor * uniformIn(rng, 0.5, 1.5))),
    created_at: daysAgo(created),
    updated_at: daysAgo(uniformIn(rng, 0, created)),
  };
}

async function insertOffers(tx: Queryable, rows: OfferRow[]): Promise<void> {
  await tx.query(sql`
    INSERT INTO offers (legacy_id, slug, network_id, external_id, name, description, preview_url, landing_domain,
      payout_amount, currency, payout_type, payout_percent, payout_usd, countries, category_ids, mobile, ppc,
      allowed_traffic, restricted_traffic, sponsored, status, popularity, created_at, updated_at)
    SELECT x.legacy_id, x.slug, x.network_id, x.external_id, x.name, x.description, x.preview_url, x.landing_domain,
      x.payout_amount, x.currency, x.payout_type, x.payout_percent, x.payout_usd,
      ARRAY(SELECT jsonb_array_elements_text(x.countries)),
      ARRAY(SELECT jsonb_array_elements_text(x.category_ids)::int),
      x.mobile, x.ppc,
      ARRAY(SELECT jsonb_array_elements_text(x.allowed_traffic)),
      ARRAY(SELECT jsonb_array_elements_text(x.restricted_traffic)),
      x.sponsored, x.status, x.popularity, x.created_at, x.updated_at
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(
      ord int, legacy_id int, slug text, network_id bigint, external_id text, name text, description text,
      preview_url text, landing_domain text, payout_amount numeric, currency text, payout_type text,
      payout_percent numeric, payout_usd numeric, countries jsonb, category_ids jsonb, mobile boolean, ppc boolean,
      allowed_traffic jsonb, restricted_traffic jsonb, sponsored boolean, status text, popularity int,
      created_at timestamptz, updated_at timestamptz)
    ORDER BY x.ord`);
}
