// A network's average and count, recomputed from its published reviews. Callers
// hold the network row's lock (SELECT … FOR UPDATE) inside their transaction, so
// concurrent writes cannot lose an update; the trust score and the page's
// structured data are derived from these two numbers.
import { sql, type Queryable } from "#db/client.ts";

export type Standing = { avg_rating: number; review_count: number };

export async function refreshStanding(tx: Queryable, networkId: number): Promise<Standing> {
  const [standing] = await tx.query<Standing>(sql`
    UPDATE networks SET
      avg_rating = coalesce((SELECT round(avg(rating), 2) FROM reviews WHERE network_id = ${networkId} AND status = 'published'), 0),
      review_count = (SELECT count(*) FROM reviews WHERE network_id = ${networkId} AND status = 'published')
    WHERE id = ${networkId}
    RETURNING avg_rating, review_count`);
  return standing;
}
