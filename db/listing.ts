// The console's lists: their WHERE, their order and one page of them. The sort
// column comes from the list's own whitelist, never from the request's text, so
// a sort parameter cannot reach the SQL.
import { sql, type Queryable, type SQL } from "./client.ts";
import { ADMIN_PAGE_SIZE, type AdminList } from "#contracts/admin.ts";

/** Conditions joined with AND; a filter that is not set (undefined) is left out. */
export function allOf(...conditions: (SQL | undefined)[]): SQL {
  const set = conditions.filter((c): c is SQL => c !== undefined);
  return set.length ? sql.join(set, sql` AND `) : sql`true`;
}

/** `columns` maps each sortable name to its expression; `tiebreak` keeps paging stable (an id). */
export function orderBy<C extends string>(
  order: { sort: C; dir: "asc" | "desc" },
  columns: Record<C, SQL>,
  tiebreak: SQL,
): SQL {
  const dir = order.dir === "asc" ? sql.raw("ASC") : sql.raw("DESC");
  return sql`ORDER BY ${columns[order.sort]} ${dir} NULLS LAST, ${tiebreak} ${dir}`;
}

/**
 * One page of a console list: `rows` ends its query with the page's LIMIT and
 * OFFSET (`limit`); `count` counts the whole list. Both run at once.
 */
export async function listPage<T>(
  db: Queryable,
  page: number,
  rows: (limit: SQL) => Promise<T[]>,
  count: SQL,
): Promise<AdminList<T>> {
  const limit = sql`LIMIT ${ADMIN_PAGE_SIZE} OFFSET ${(page - 1) * ADMIN_PAGE_SIZE}`;
  const [items, [counted]] = await Promise.all([rows(limit), db.query<{ total: number }>(count)]);
  return { items, total: counted.total, page, pageSize: ADMIN_PAGE_SIZE };
}
