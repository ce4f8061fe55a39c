// House-ad impressions and clicks, counted per ad and UTC day without anything
// about the visitor. Like the search log (core/offers/search-log.ts) they are
// kept in memory and written in batches: a page view or a click never waits for
// a write, and a busy second costs one statement. The server's background work
// flushes every second and when it closes; the console flushes before reading.
import { sql, type Queryable } from "#db/client.ts";
import type { AdReport, AdReportRange, AdReportRow } from "#contracts/ads.ts";
import { AD_STATUS } from "./status.ts";

type Counts = { adId: number; day: string; impressions: number; clicks: number };

/** Ad-days kept while the database refuses them; beyond this new ones are dropped (it is a statistic). */
const MAX_PENDING = 10_000;

const utcDay = (now: Date) => now.toISOString().slice(0, 10);

export function createAdCounter(db: Queryable, clock: () => Date = () => new Date()) {
  let pending = new Map<string, Counts>();
  let writing: Promise<void> = Promise.resolve();

  function add(adId: number, day: string, impressions: number, clicks: number) {
    const key = `${adId}:${day}`;
    const counts = pending.get(key);
    if (counts) {
      counts.impressions += impressions;
      counts.clicks += clicks;
    } else if (pending.size < MAX_PENDING) {
      pending.set(key, { adId, day, impressions, clicks });
    }
  }

  // Ads deleted meanwhile are skipped by the statement itself rather than failing it.
  const upsert = (batch: Counts[]) =>
    db.query(sql`
      INSERT INTO house_ad_stats (ad_id, day, impressions, clicks)
      SELECT v.ad_id, v.day, v.impressions, v.clicks
      FROM (VALUES ${sql.join(
        batch.map((c) => sql`(${c.adId}::bigint, ${c.day}::date, ${c.impressions}::bigint, ${c.clicks}::bigint)`),
        sql`, `,
      )}) AS v (ad_id, day, impressions, clicks)
      WHERE EXISTS (SELECT 1 FROM house_ads a WHERE a.id = v.ad_id)
      ON CONFLICT (ad_id, day) DO UPDATE SET
        impressions = house_ad_stats.impressions + EXCLUDED.impressions,
        clicks = house_ad_stats.clicks + EXCLUDED.clicks`);

  async function write(batch: Counts[]) {
    try {
      await upsert(batch);
    } catch (err) {
      // The database is away: the counts wait for the next flush.
      for (const c of batch) add(c.adId, c.day, c.impressions, c.clicks);
      throw err;
    }
  }

  function flush(): Promise<void> {
    const batch = [...pending.values()];
    pending = new Map();
    // One write at a time, in order.
    writing = writing.catch(() => {}).then(() => (batch.length ? write(batch) : undefined));
    return writing;
  }

  return {
    impression: (adId: number) => add(adId, utcDay(clock()), 1, 0),
    click: (adId: number) => add(adId, utcDay(clock()), 0, 1),
    flush,
  };
}

/** clicks / impressions, or null when nothing was shown. */
export const ctrOf = (impressions: number, clicks: number) => (impressions > 0 ? clicks / impressions : null);

/**
 * Impressions, clicks and CTR per ad over `range` (UTC days, both included):
 * every ad counted in the range, and every ad that was due to serve in it.
 */
export async function adReport(db: Queryable, range: AdReportRange): Promise<AdReport> {
  const rows = await db.query<Omit<AdReportRow, "ctr">>(sql`
    SELECT a.id, a.slot_size AS size, a.headline, a.site_id AS "siteId", ${AD_STATUS} AS status,
           coalesce(sum(s.impressions), 0)::bigint AS impressions, coalesce(sum(s.clicks), 0)::bigint AS clicks
    FROM house_ads a
    LEFT JOIN house_ad_stats s ON s.ad_id = a.id AND s.day BETWEEN ${range.from}::date AND ${range.to}::date
    WHERE s.ad_id IS NOT NULL
       OR (a.active AND a.starts_on <= ${range.to}::date AND (a.ends_on IS NULL OR a.ends_on >= ${range.from}::date))
    GROUP BY a.id
    ORDER BY impressions DESC, clicks DESC, a.id`);
  const items = rows.map((r) => ({ ...r, ctr: ctrOf(r.impressions, r.clicks) }));
  const impressions = items.reduce((n, r) => n + r.impressions, 0);
  const clicks = items.reduce((n, r) => n + r.clicks, 0);
  return { ...range, items, totals: { impressions, clicks, ctr: ctrOf(impressions, clicks) } };
}
