// Shared by the supply tests: a test app with a secrets key, a fresh network with
// a source (Everflow unless told) pointing at a fake server, and the readings the tests make.
import crypto from "node:crypto";
import { sql, type Database } from "#db/client.ts";
import type { Secrets } from "#core/supply/secrets.ts";

export const SECRETS_KEY = crypto.randomBytes(32).toString("hex");
export const API_KEY = "ef-affiliate-key-0001";

let networks = 0;

/** A new network (so counts are the source's alone) with a source; returns both ids. */
export async function addSource(
  db: Database,
  secrets: Secrets,
  options: {
    url: string;
    pageSize?: number;
    retireAfterRuns?: number;
    /** null: a source without credentials (a public feed). */
    apiKey?: string | null;
    platform?: string;
    /** The source's settings; the default sets only page_size. */
    settings?: Record<string, unknown>;
  },
) {
  networks++;
  const slug = `fake-network-${networks}-${crypto.randomBytes(3).toString("hex")}`;
  const [network] = await db.query<{ id: number }>(
    sql`INSERT INTO networks (slug, name) VALUES (${slug}, ${`Fake Network ${slug}`}) RETURNING id`,
  );
  const [source] = await db.query<{ id: number }>(sql`
    INSERT INTO offer_sources (network_id, platform, endpoint, credentials, settings, retire_after_runs)
    VALUES (${network.id}, ${options.platform ?? "everflow"}, ${options.url},
      ${options.apiKey === null ? null : secrets.seal(options.apiKey ?? API_KEY)}::bytea,
      ${JSON.stringify(options.settings ?? { page_size: options.pageSize ?? 100 })}::jsonb, ${options.retireAfterRuns ?? 3})
    RETURNING id`);
  return { networkId: network.id, sourceId: source.id };
}

export async function sourceState(db: Database, sourceId: number) {
  const [row] = await db.query<{ state: string; lastError: string | null }>(
    sql`SELECT state, last_error AS "lastError" FROM offer_sources WHERE id = ${sourceId}`,
  );
  return row;
}

export async function offerOf(db: Database, sourceId: number, externalId: number) {
  const [row] = await db.query<{
    id: number;
    name: string;
    slug: string;
    description: string;
    payoutType: string;
    payoutAmount: number | null;
    payoutPercent: number | null;
    payoutUsd: number | null;
    currency: string;
    countries: string[];
    categoryIds: number[];
    landingDomain: string | null;
    previewUrl: string | null;
    status: string;
    missedRuns: number;
    verified: boolean;
  }>(sql`
    SELECT id, name, slug, description, payout_type AS "payoutType", payout_amount AS "payoutAmount",
      payout_percent AS "payoutPercent", payout_usd AS "payoutUsd", btrim(currency) AS currency, countries,
      category_ids AS "categoryIds", landing_domain AS "landingDomain", preview_url AS "previewUrl", status,
      missed_runs AS "missedRuns", verified_at IS NOT NULL AS verified
    FROM offers WHERE source_id = ${sourceId} AND external_id = ${String(externalId)}`);
  return row;
}

export async function historyOf(db: Database, offerId: number) {
  return db.query<{ payoutAmount: number | null; status: string }>(sql`
    SELECT payout_amount AS "payoutAmount", status FROM offer_history WHERE offer_id = ${offerId} ORDER BY id`);
}
