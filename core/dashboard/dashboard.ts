// The console's dashboard (admins): what waits in each queue, what people search
// for (and what the directory lacks: searches that found nothing), and the join
// clicks each network got, per UTC day over the last `days` days (today included).
// The search log is written in batches (core/offers/search-log.ts): the last
// second of searches may not be counted yet.
import { z } from "zod";
import { sql, type Queryable, type SQL } from "#db/client.ts";
import { integerField } from "#contracts/validation.ts";

export const DASHBOARD_DEFAULT_DAYS = 30;
export const DASHBOARD_MAX_DAYS = 365;
/** Rows of each ranking (top searches, searches without results, networks by join clicks). */
const RANKING_SIZE = 20;

export const dashboardQuery = z.object({
  days: z.preprocess(
    (v) => (v === "" ? undefined : v),
    integerField("days", 1)
      .refine((n) => n <= DASHBOARD_MAX_DAYS, `days must be at most ${DASHBOARD_MAX_DAYS}`)
      .default(DASHBOARD_DEFAULT_DAYS),
  ),
});

export type Dashboard = {
  days: number;
  /** The first and last day counted (UTC, YYYY-MM-DD). */
  from: string;
  to: string;
  /** What waits in each queue now, as its console page counts it. */
  pending: { submissions: number; reportedReviews: number; heldReviews: number; inbox: number };
  /** One entry per day, oldest first, days without activity included. */
  perDay: { day: string; searches: number; searchesWithoutResults: number; joinClicks: number }[];
  /** Most searched keywords of the window, with the result count of their latest search. */
  topSearches: { query: string; searches: number; searchers: number; latestResults: number }[];
  /** Keywords that found nothing every time they were searched in the window. */
  searchesWithoutResults: { query: string; searches: number; searchers: number; lastSearchedAt: string }[];
  /** Networks with the most join clicks, each with its clicks per day (days with none left out). */
  joinClicksByNetwork: { networkId: number; name: string; clicks: number; perDay: { day: string; clicks: number }[] }[];
};

/** Different visitors: the hashed address, or the row itself when none was kept. */
const searchers = sql`count(DISTINCT coalesce(s.ip_hash, s.id::text))::int`;

export function createDashboardService(db: Queryable) {
  return {
    async read(siteId: string, days: number): Promise<Dashboard> {
      const today = sql`(now() AT TIME ZONE 'UTC')::date`;
      const first = sql`(${today} - ${days - 1}::int)`;
      /** `column` falls on one of the window's days. */
      const inWindow = (column: SQL) =>
        sql`${column} >= (${first})::timestamp AT TIME ZONE 'UTC' AND ${column} < (${today} + 1)::timestamp AT TIME ZONE 'UTC'`;
      const day = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;

      const [[window], [pending], perDay, topSearches, searchesWithoutResults, networks] = await Promise.all([
        db.query<{ from: string; to: string }>(sql`
          SELECT to_char(${first}, 'YYYY-MM-DD') AS "from", to_char(${today}, 'YYYY-MM-DD') AS "to"`),
        // The same rules as the queues' pages: new submissions and inbox items of
        // this site; reported reviews (still shown, with a report since their last
        // moderation) and held ones, as core/reviews/moderation.ts lists them.
        db.query<Dashboard["pending"]>(sql`
          SELECT
            (SELECT count(*)::int FROM network_submissions WHERE site_id = ${siteId} AND status = 'pending') AS submissions,
            (SELECT count(*)::int FROM reviews r WHERE r.status = 'published' AND EXISTS (
               SELECT 1 FROM review_reports x WHERE x.review_id = r.id
                 AND (r.moderated_at IS NULL OR x.created_at > r.moderated_at))) AS "reportedReviews",
            (SELECT count(*)::int FROM reviews WHERE status = 'held') AS "heldReviews",
            (SELECT count(*)::int FROM advertisement_requests WHERE site_id = ${siteId} AND status = 'new')
              + (SELECT count(*)::int FROM contact_messages WHERE site_id = ${siteId} AND status = 'new') AS inbox`),
        db.query<Dashboard["perDay"][number]>(sql`
          SELECT to_char(d.day, 'YYYY-MM-DD') AS day, coalesce(s.searches, 0)::int AS searches,
                 coalesce(s.empty, 0)::int AS "searchesWithoutResults", coalesce(j.clicks, 0)::int AS "joinClicks"
          FROM generate_series(${first}::timestamp, ${today}::timestamp, interval '1 day') AS d(day)
          LEFT JOIN (
            SELECT (s.created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS searches,
                   count(*) FILTER (WHERE s.result_count = 0) AS empty
            FROM search_log s WHERE s.site_id = ${siteId} AND ${inWindow(sql`s.created_at`)} GROUP BY 1
          ) s ON s.day = d.day::date
          LEFT JOIN (
            SELECT (j.created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS clicks
            FROM join_clicks j WHERE j.site_id = ${siteId} AND ${inWindow(sql`j.created_at`)} GROUP BY 1
          ) j ON j.day = d.day::date
          ORDER BY d.day`),
        db.query<Dashboard["topSearches"][number]>(sql`
          SELECT s.query, count(*)::int AS searches, ${searchers} AS searchers,
                 (array_agg(s.result_count ORDER BY s.created_at DESC, s.id DESC))[1] AS "latestResults"
          FROM search_log s WHERE s.site_id = ${siteId} AND ${inWindow(sql`s.created_at`)}
          GROUP BY s.query ORDER BY searches DESC, searchers DESC, s.query LIMIT ${RANKING_SIZE}`),
        db.query<Dashboard["searchesWithoutResults"][number]>(sql`
          SELECT s.query, count(*)::int AS searches, ${searchers} AS searchers,
                 to_char(max(s.created_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "lastSearchedAt"
          FROM search_log s WHERE s.site_id = ${siteId} AND ${inWindow(sql`s.created_at`)}
          GROUP BY s.query HAVING max(s.result_count) = 0
          ORDER BY searches DESC, searchers DESC, s.query LIMIT ${RANKING_SIZE}`),
        db.query<{ networkId: number; name: string; clicks: number; perDay: { day: string; clicks: number }[] }>(sql`
          WITH top AS (
            SELECT j.network_id, count(*)::int AS clicks
            FROM join_clicks j WHERE j.site_id = ${siteId} AND ${inWindow(sql`j.created_at`)}
            GROUP BY j.network_id
          ), daily AS (
            SELECT j.network_id, ${day(sql`j.created_at`)} AS day, count(*)::int AS clicks
            FROM join_clicks j WHERE j.site_id = ${siteId} AND ${inWindow(sql`j.created_at`)}
            GROUP BY 1, 2
          )
          SELECT n.id AS "networkId", n.name, top.clicks,
                 (SELECT json_agg(json_build_object('day', d.day, 'clicks', d.clicks) ORDER BY d.day)
                  FROM daily d WHERE d.network_id = top.network_id) AS "perDay"
          FROM top JOIN networks n ON n.id = top.network_id
          ORDER BY top.clicks DESC, lower(n.name), n.id LIMIT ${RANKING_SIZE}`),
      ]);
      return {
        days,
        from: window.from,
        to: window.to,
        pending,
        perDay,
        topSearches,
        searchesWithoutResults,
        joinClicksByNetwork: networks,
      };
    },
  };
}
