import { sql, type Queryable } from "#db/client.ts";
import { queryOfferRows } from "./listing.ts";

export function createOfferService(db: Queryable) {
  return {
    /** Sponsored offers first, then the most popular. */
    top: (limit: number) =>
      queryOfferRows(db, sql`o.status = 'active'`, sql`ORDER BY o.sponsored DESC, o.popularity DESC, o.id DESC LIMIT ${limit}`),
  };
}
