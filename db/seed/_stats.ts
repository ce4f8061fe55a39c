import { openDatabase, sql } from "#db/client.ts";
import { migrate } from "#db/migrate.ts";
import { seedDemoData } from "#db/seed/demo.ts";
const db = await openDatabase({});
await migrate(db);
await seedDemoData(db, { siteId: "offeratlas" });
const qs = [
  `SELECT count(DISTINCT product_key) products, count(*) offers FROM offers`,
  `SELECT k, count(*) FROM (SELECT product_key, count(DISTINCT network_id) k FROM offers GROUP BY 1) t GROUP BY k ORDER BY k`,
  `SELECT payout_type, count(*), round(avg(payout_usd),2) avg_usd, round(avg(payout_percent),1) avg_pct, count(*) FILTER (WHERE payout_usd IS NULL) pct_only FROM offers GROUP BY 1 ORDER BY 2 DESC`,
  `SELECT currency, count(*) FROM offers GROUP BY 1 ORDER BY 2 DESC`,
  `SELECT round(avg(sponsored::int)*100,1) sponsored, round(avg(ppc::int)*100,1) ppc, round(avg(mobile::int)*100,1) mobile FROM offers`,
  `SELECT status, count(*) FROM offers GROUP BY 1`,
  `SELECT offer_count FROM networks ORDER BY offer_count DESC LIMIT 12`,
  `SELECT count(*) FILTER (WHERE offer_count = 0) zero, count(*) FILTER (WHERE offer_count BETWEEN 1 AND 10) small, percentile_cont(0.5) WITHIN GROUP (ORDER BY offer_count) median FROM networks`,
  `SELECT c, count(*) FROM offers, unnest(countries) c GROUP BY 1 ORDER BY 2 DESC LIMIT 8`,
  `SELECT percentile_cont(ARRAY[0.5,0.9,0.99,0.999]) WITHIN GROUP (ORDER BY popularity), max(popularity) FROM offers`,
  `SELECT min(created_at), max(created_at) FROM offers`,
  `SELECT name, network_id, payout_amount, currency, payout_type, payout_percent, payout_usd, landing_domain FROM offers WHERE product_key IN (SELECT product_key FROM offers GROUP BY 1 HAVING count(*) >= 4 LIMIT 3) ORDER BY product_key`,
  `SELECT id, name, slug, preview_url, countries, category_ids, allowed_traffic, restricted_traffic, external_id, popularity, description FROM offers ORDER BY id LIMIT 6`,
  `SELECT name, slug, website, featured, payment_terms, payment_methods, minimum_payment, tracking_platform, commission_types, description FROM networks ORDER BY id LIMIT 6`,
  `SELECT identifier, count(*), count(*) FILTER (WHERE paid_account) FROM network_properties GROUP BY 1`,
  `SELECT name, featured, ad_formats, pricing_models, minimum_deposit, cardinality(geos), description FROM traffic_sources ORDER BY id LIMIT 8`,
  `SELECT count(*) FILTER (WHERE featured) FROM traffic_sources`,
  `SELECT name, top FROM categories WHERE top`,
  `SELECT c.name, count(*) FROM offers o JOIN categories c ON c.id = o.category_ids[1] GROUP BY 1 ORDER BY 2 DESC LIMIT 10`,
];
for (const q of qs) { console.log("--", q.slice(0, 90)); console.table(await db.query(sql.raw(q))); }
await db.close();
