// Offer slugs: made from the name and unique across the directory (migration 0024), so a
// bare slug (/offer/{slug}, GET /api/offers/{slug}) names one offer, the one its page shows.
// Every writer of offers (the console, the syncs, the demo seed) takes its slugs from here.
import { array, sql, type Queryable } from "#db/client.ts";

/** Longest slug made from a name; a numbered one may add a few characters. */
const SLUG_MAX = 120;

export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, SLUG_MAX)
    .replace(/-+$/, "");
}

/** The first of `base`-2, `base`-3, … that `taken` does not hold. */
export function numberedSlug(base: string, taken: ReadonlySet<string>, from = 2): string {
  for (let n = from; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** Which of `slugs` offers already use, the offer `exceptId` (being edited) aside. */
export async function takenSlugs(db: Queryable, slugs: readonly string[], exceptId: number | null = null) {
  if (!slugs.length) return new Set<string>();
  const rows = await db.query<{ slug: string }>(sql`
    SELECT slug FROM offers WHERE slug = ANY (${array([...new Set(slugs)])}::text[])
      AND id IS DISTINCT FROM ${exceptId}::bigint`);
  return new Set(rows.map((r) => r.slug));
}

/** How many numbered slugs each round asks about at once. */
const ROUND = 16;

/**
 * Free slugs for new offers (or one being renamed, `exceptId`), in order: each gets the first of its
 * candidates that is free, else its first candidate numbered -2, -3, …; no two get the same one.
 * A few queries in all, whatever the number of offers. `tx` must be the transaction that then writes
 * the offers: it holds a lock on slug allocation until it ends, so two writers at once (syncs of
 * networks listing the same offer names) never both pick the same free slug.
 */
export async function allocateSlugs(
  tx: Queryable,
  candidates: readonly (readonly string[])[],
  exceptId: number | null = null,
): Promise<string[]> {
  if (!candidates.length) return [];
  await tx.query(sql`SELECT pg_advisory_xact_lock(hashtext('offers.slug'))`);
  const chosen: string[] = [];
  const claimed = new Set<string>();
  let pending = candidates.map((list, i) => ({ i, list }));
  for (let round = 0; pending.length; round++) {
    const taken = await takenSlugs(
      tx,
      pending.flatMap((p) => p.list),
      exceptId,
    );
    const left: typeof pending = [];
    for (const p of pending) {
      const free = p.list.find((s) => !taken.has(s) && !claimed.has(s));
      if (free !== undefined) {
        claimed.add(free);
        chosen[p.i] = free;
        continue;
      }
      const base = candidates[p.i][0];
      const first = 2 + round * ROUND;
      left.push({ i: p.i, list: Array.from({ length: ROUND }, (_, k) => `${base}-${first + k}`) });
    }
    pending = left;
  }
  return chosen;
}
