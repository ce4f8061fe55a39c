// The /links page (GET /api/links): every network, traffic source and offer
// the site lists, as one sequence — networks, then traffic sources (by name),
// then offers (by id) — cut into pages.
import { sql, type Queryable } from "#db/client.ts";
import type { LinksPage, LinkEntry } from "#contracts/links.ts";
import { KINDS, type EntryKind } from "./catalog.ts";

const LINKS_PAGE_SIZE = 500;

export async function linksPage(
  db: Queryable,
  siteId: string,
  page: number,
  pageSize = LINKS_PAGE_SIZE,
): Promise<LinksPage> {
  const counts = await Promise.all(
    (["networks", "traffic-sources", "offers"] as const).map(async (kind) => {
      const [row] = await db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM ${KINDS[kind].source(siteId)}`);
      return [kind, row.n] as const;
    }),
  );
  const total = counts.reduce((sum, [, n]) => sum + n, 0);
  const totalPages = Math.max(1, Math.ceil(total / pageSize));
  const result: LinksPage = { page, pageSize, total, totalPages, networks: [], trafficSources: [], offers: [] };
  if (page > totalPages) return result;

  let start = (page - 1) * pageSize;
  let want = pageSize;
  for (const [kind, count] of counts) {
    if (want <= 0) break;
    if (start >= count) {
      start -= count;
      continue;
    }
    const take = Math.min(want, count - start);
    const entries = await slice(db, siteId, kind, start, take);
    if (kind === "networks") result.networks = entries;
    else if (kind === "traffic-sources") result.trafficSources = entries;
    else result.offers = entries;
    want -= take;
    start = 0;
  }
  return result;
}

async function slice(
  db: Queryable,
  siteId: string,
  kind: EntryKind,
  offset: number,
  limit: number,
): Promise<LinkEntry[]> {
  const order = kind === "offers" ? sql`ORDER BY t.id` : sql`ORDER BY lower(t.name), t.id`;
  const rows = await db.query<{ id: number; slug: string; name: string }>(
    sql`SELECT t.id, t.slug, t.name FROM ${KINDS[kind].source(siteId)} ${order} LIMIT ${limit} OFFSET ${offset}`,
  );
  return rows.map((r) => ({ id: r.id, name: r.name, url: KINDS[kind].path(r) }));
}
