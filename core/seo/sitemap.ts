// /sitemap.xml is an index; each listed file holds one id range of one kind
// (keyset paging: page p = ids ((p-1)·size, p·size]). Only ranges that hold
// rows are listed, found with one index probe per range, and a file is
// streamed in chunks, so a million offers never sit in memory together.
import { sql, type Queryable } from "#db/client.ts";
import { isEntryKind, KINDS, STATIC_PATHS, type EntryKind } from "./catalog.ts";
import { xml } from "./xml.ts";

/** The sitemap protocol's limit of URLs per file. */
const SITEMAP_MAX_URLS = 50_000;
const CHUNK = 5_000;
const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NS = "http://www.sitemaps.org/schemas/sitemap/0.9";

export type SitemapOptions = { pageSize?: number };

export function createSitemaps(db: Queryable, options: SitemapOptions = {}) {
  const size = Math.min(options.pageSize ?? SITEMAP_MAX_URLS, SITEMAP_MAX_URLS);

  /** 1-based numbers of the pages of `kind` that hold at least one row. */
  async function pagesOf(siteId: string, kind: EntryKind): Promise<number[]> {
    const from = KINDS[kind].source(siteId);
    // Loose index scan: jump from range to range by the next existing id.
    const rows = await db.query<{ bucket: number }>(sql`
      WITH RECURSIVE b(bucket) AS (
        SELECT (SELECT (min(t.id) - 1) / ${size}::bigint FROM ${from})
        UNION ALL
        SELECT (SELECT (min(t.id) - 1) / ${size}::bigint FROM ${from} AND t.id > (b.bucket + 1) * ${size}::bigint)
        FROM b WHERE b.bucket IS NOT NULL
      )
      SELECT bucket FROM b WHERE bucket IS NOT NULL`);
    return rows.map((r) => Number(r.bucket) + 1);
  }

  return {
    pageSize: size,

    async index(siteId: string, origin: string): Promise<string> {
      const entries = [`${origin}/sitemaps/pages/1.xml`];
      for (const kind of Object.keys(KINDS) as EntryKind[]) {
        for (const page of await pagesOf(siteId, kind)) entries.push(`${origin}/sitemaps/${kind}/${page}.xml`);
      }
      return `${HEAD}<sitemapindex xmlns="${NS}">\n${entries.map((loc) => `  <sitemap><loc>${xml(loc)}</loc></sitemap>\n`).join("")}</sitemapindex>\n`;
    },

    /** One sitemap file, or null when `kind`/`page` names none (an empty range is a 404, not an empty file). */
    async page(siteId: string, origin: string, kind: string, page: number): Promise<ReadableStream<Uint8Array> | null> {
      if (!Number.isSafeInteger(page) || page < 1) return null;
      const encoder = new TextEncoder();
      const open = `${HEAD}<urlset xmlns="${NS}">\n`;
      const close = "</urlset>\n";
      if (kind === "pages") {
        if (page !== 1) return null;
        const body = STATIC_PATHS.map((p) => `  <url><loc>${xml(origin + p)}</loc></url>\n`).join("");
        return new Blob([open + body + close]).stream() as ReadableStream<Uint8Array>;
      }
      if (!isEntryKind(kind)) return null;
      const def = KINDS[kind];
      const from = def.source(siteId);
      const high = page * size;
      let after = (page - 1) * size;
      const [first] = await db.query<{ found: boolean }>(
        sql`SELECT EXISTS (SELECT 1 FROM ${from} AND t.id > ${after} AND t.id <= ${high}) AS found`,
      );
      if (!first.found) return null;
      let done = false;
      return new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encoder.encode(open));
        },
        async pull(controller) {
          if (done) return;
          const rows = await db.query<{ id: number; slug: string; updated_at: Date }>(sql`
            SELECT t.id, t.slug, t.updated_at FROM ${from} AND t.id > ${after} AND t.id <= ${high}
            ORDER BY t.id LIMIT ${CHUNK}`);
          if (rows.length) {
            after = rows[rows.length - 1].id;
            controller.enqueue(
              encoder.encode(
                rows
                  .map(
                    (r) =>
                      `  <url><loc>${xml(origin + def.path(r))}</loc><lastmod>${r.updated_at.toISOString()}</lastmod></url>\n`,
                  )
                  .join(""),
              ),
            );
          }
          if (rows.length < CHUNK) {
            done = true;
            controller.enqueue(encoder.encode(close));
            controller.close();
          }
        },
      });
    },
  };
}
