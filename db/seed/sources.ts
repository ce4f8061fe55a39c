// Demo offer sources (issue #13): one per platform, disabled, on the first demo
// networks, pointing at the fake platforms `npm run demo:platforms` serves on
// 127.0.0.1 (scripts/demo-platforms.ts), so a newcomer can watch a sync end to
// end. Seeded by `npm start` with the demo data. The demo API key is sealed only
// when SECRETS_KEY is set; without it the sources have no credentials (the feed
// needs none; the others ask for a key before they sync).
import { sql, type Queryable } from "#db/client.ts";
import type { SourcePlatform } from "#contracts/supply.ts";
import type { Secrets } from "#core/supply/secrets.ts";

/** The key the fake platforms accept (a demo value, not a secret). */
export const DEMO_API_KEY = "demo-affiliate-key";

/** The fake platforms' ports on 127.0.0.1, in the order their sources are seeded. */
export const DEMO_PLATFORM_PORTS: Record<SourcePlatform, number> = {
  everflow: 4701,
  tune: 4702,
  cake: 4703,
  affise: 4704,
  feed: 4705,
};

/** Where a fake platform answers, from its port; the feed is one file. */
export function demoEndpoint(platform: SourcePlatform, port = DEMO_PLATFORM_PORTS[platform]): string {
  return `http://127.0.0.1:${port}${platform === "feed" ? "/offers.csv" : ""}`;
}

/** Settings the fakes expect (CAKE's feed belongs to an affiliate id). */
const SETTINGS: Partial<Record<SourcePlatform, Record<string, unknown>>> = { cake: { affiliate_id: "7" } };

/** Adds the demo sources, one per platform on each of the first networks; returns how many. */
export async function seedDemoSources(db: Queryable, options: { secrets?: Secrets }): Promise<number> {
  const platforms = Object.keys(DEMO_PLATFORM_PORTS) as SourcePlatform[];
  const networks = await db.query<{ id: number }>(
    sql`SELECT id FROM networks WHERE retired_at IS NULL ORDER BY id LIMIT ${platforms.length}`,
  );
  const rows = networks.map((network, i) => {
    const platform = platforms[i];
    const sealed = options.secrets && platform !== "feed" ? options.secrets.seal(DEMO_API_KEY) : null;
    return {
      network_id: network.id,
      platform,
      endpoint: demoEndpoint(platform),
      credentials: sealed?.toString("hex") ?? null,
      settings: SETTINGS[platform] ?? {},
    };
  });
  if (!rows.length) return 0;
  await db.query(sql`
    INSERT INTO offer_sources (network_id, platform, endpoint, credentials, settings, enabled)
    SELECT r.network_id, r.platform, r.endpoint, decode(r.credentials, 'hex'), r.settings, false
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      AS r(network_id bigint, platform text, endpoint text, credentials text, settings jsonb)`);
  return rows.length;
}
