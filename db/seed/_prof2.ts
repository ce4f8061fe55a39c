import { openDatabase, sql } from "#db/client.ts";
import { migrate } from "#db/migrate.ts";
import { seedDemoData } from "#db/seed/demo.ts";
const db = await openDatabase({});
await migrate(db);
await seedDemoData(db, { siteId: "offeratlas" });
for (const q of [
  `SELECT count(to_tsvector('english', description)) FROM offers`,
  `SELECT count(to_tsvector('simple', name)) FROM offers`,
  `SELECT count((SELECT name FROM networks n WHERE n.id = o.network_id)) FROM offers o`,
  `SELECT count((SELECT string_agg(name, ' ') FROM categories WHERE id = ANY (o.category_ids))) FROM offers o`,
  `SELECT count(setweight(to_tsvector('simple', coalesce(o.name, '')), 'A') || setweight(to_tsvector('simple', coalesce((SELECT name FROM networks WHERE id = o.network_id), '')), 'B') || setweight(to_tsvector('simple', coalesce((SELECT string_agg(name, ' ') FROM categories WHERE id = ANY (o.category_ids)), '')), 'B') || setweight(to_tsvector('english', coalesce(o.description, '')), 'C')) FROM offers o`,
  `UPDATE offers SET name = name`,
]) { const t = performance.now(); await db.query(sql.raw(q)); console.log((performance.now()-t).toFixed(0), q.slice(0,70)); }
await db.close();
