// Cursor pagination of the public API: a cursor is opaque to clients (base64url of
// a small JSON object) and says where the next page starts. Lists go in name order
// and a cursor holds the last item's sort key and id, so a page never repeats or
// skips an item when earlier ones are added or removed. The offers search keeps the
// site's own ranking, so its cursor holds the next page of that ranking.
import { z } from "zod";
import type { FastifyReply, FastifyRequest } from "fastify";
import { badRequest } from "#core/errors.ts";
import { OFFERS_MAX_PAGE } from "#contracts/offers.ts";
import { V1_DEFAULT_LIMIT, V1_MAX_LIMIT } from "#contracts/v1.ts";

const BAD_CURSOR = "cursor is not a cursor this list gave";

const nameCursor = z.object({ n: z.string().max(400), i: z.number().int().min(0) }).strict();
const offerCursor = z.object({ p: z.number().int().min(2).max(OFFERS_MAX_PAGE) }).strict();

const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

function decode<T>(schema: z.ZodType<T>, cursor: string): T {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw badRequest(BAD_CURSOR);
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw badRequest(BAD_CURSOR);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw badRequest(BAD_CURSOR);
  return parsed.data;
}

/** The page size a query asks for (already checked to be digits by its schema). */
export function pageLimit(limit: string | undefined): number {
  if (limit === undefined) return V1_DEFAULT_LIMIT;
  const n = Number(limit);
  if (n < 1 || n > V1_MAX_LIMIT) throw badRequest(`limit must be between 1 and ${V1_MAX_LIMIT}`);
  return n;
}

type Named = { id: number; name: string };
const sortKey = (item: Named) => item.name.toLowerCase();

/** One page of a whole list in (lowercase name, id) order, from the cursor on. */
export function nameOrderPage<T extends Named>(
  items: readonly T[],
  cursor: string | undefined,
  limit: number,
): { items: T[]; next: string | null } {
  const sorted = [...items].sort((a, b) => {
    const x = sortKey(a);
    const y = sortKey(b);
    return x < y ? -1 : x > y ? 1 : a.id - b.id;
  });
  const after = cursor === undefined ? null : decode(nameCursor, cursor);
  const rest = after
    ? sorted.filter((item) => sortKey(item) > after.n || (sortKey(item) === after.n && item.id > after.i))
    : sorted;
  const page = rest.slice(0, limit);
  const last = page.at(-1);
  return { items: page, next: rest.length > limit && last ? encode({ n: sortKey(last), i: last.id }) : null };
}

/** The search page a cursor names (1 without one). */
export function offerPageOf(cursor: string | undefined): number {
  return cursor === undefined ? 1 : decode(offerCursor, cursor).p;
}

export function offerCursorAfter(page: number, pageCount: number): string | null {
  return page < Math.min(pageCount, OFFERS_MAX_PAGE) ? encode({ p: page + 1 }) : null;
}

/** Adds `Link: <same address with the next cursor>; rel="next"` when there is a next page. */
export function linkNext(request: FastifyRequest, reply: FastifyReply, next: string | null): void {
  if (!next) return;
  const url = new URL(request.url, "http://local");
  url.searchParams.set("cursor", next);
  reply.header("link", `<${url.pathname}${url.search}>; rel="next"`);
}
