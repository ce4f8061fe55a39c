// RSS 2.0 feed of the newest offers, optionally of one category (`?vertical=`), for
// affiliates who follow new programs in a reader or a chat bot.
import { sql, type Queryable } from "#db/client.ts";
import { formatPayout } from "#contracts/money.ts";
import { queryOfferRows } from "#core/offers/listing.ts";
import { KINDS } from "./catalog.ts";
import { xml } from "./xml.ts";

const FEED_SIZE = 50;

export type FeedOptions = { origin: string; siteName: string; category?: string | null };

export async function offersFeed(db: Queryable, options: FeedOptions): Promise<string | null> {
  const { origin, siteName } = options;
  let category: { id: number; name: string; slug: string } | undefined;
  const wanted = options.category?.trim();
  if (wanted) {
    // Either the category's slug or its name, as a person would type it.
    [category] = await db.query<{ id: number; name: string; slug: string }>(
      sql`SELECT id, name, slug FROM categories WHERE slug = ${wanted.toLowerCase()} OR lower(name) = ${wanted.toLowerCase()} LIMIT 1`,
    );
    if (!category) return null;
  }
  const where = category
    ? sql`o.status = 'active' AND o.category_ids @> ARRAY[${category.id}]::integer[]`
    : sql`o.status = 'active'`;
  const offers = await queryOfferRows(db, where, sql`ORDER BY o.created_at DESC, o.id DESC LIMIT ${FEED_SIZE}`);

  const self = `${origin}/feeds/offers.xml${category ? `?vertical=${encodeURIComponent(category.slug)}` : ""}`;
  const title = category ? `New ${category.name} offers | ${siteName}` : `New affiliate offers | ${siteName}`;
  const items = offers.map((o) => {
    const link = origin + KINDS.offers.path(o);
    const payout = formatPayout(o);
    const geos = o.countries.length
      ? o.countries.slice(0, 10).join(", ") + (o.countries.length > 10 ? "…" : "")
      : "All countries";
    const description = `${payout} ${o.payoutType} on ${o.networkName}. Countries: ${geos}.`;
    return [
      "    <item>",
      `      <title>${xml(`${o.name}: ${payout} ${o.payoutType}`)}</title>`,
      `      <link>${xml(link)}</link>`,
      `      <guid isPermaLink="true">${xml(link)}</guid>`,
      `      <pubDate>${new Date(o.createdAt).toUTCString()}</pubDate>`,
      `      <description>${xml(description)}</description>`,
      ...o.categories.map((c) => `      <category>${xml(c)}</category>`),
      "    </item>",
    ].join("\n");
  });
  const updated = offers[0] ? new Date(offers[0].createdAt).toUTCString() : new Date(0).toUTCString();
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>${xml(title)}</title>
    <link>${xml(origin + "/")}</link>
    <description>${xml(`The newest affiliate offers listed on ${siteName}${category ? ` in ${category.name}` : ""}.`)}</description>
    <language>en</language>
    <lastBuildDate>${updated}</lastBuildDate>
    <atom:link href="${xml(self)}" rel="self" type="application/rss+xml"/>
${items.join("\n")}
  </channel>
</rss>
`;
}
