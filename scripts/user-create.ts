// `npm run user:create -- --email a@b.c --name "Ann" [--password …] [--admin] [--moderator]`
// Creates an account, or adds the roles given to an existing one (contracts/roles.ts). Without --password a strong
// one is generated and printed once.
import crypto from "node:crypto";
import path from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { openDatabase, sql, array } from "#db/client.ts";
import { migrate } from "#db/migrate.ts";
import { hashPassword } from "#core/auth/passwords.ts";
import { createSiteService } from "#core/sites/sites.ts";
import { loadConfig } from "#server/config.ts";
import { ROLES } from "#contracts/roles.ts";

const { values } = parseArgs({
  options: {
    email: { type: "string" },
    name: { type: "string", default: "Administrator" },
    password: { type: "string" },
    admin: { type: "boolean", default: false },
    moderator: { type: "boolean", default: false },
  },
});
const email = z.email().safeParse(values.email?.trim());
if (!email.success) {
  console.error(
    'Usage: npm run user:create -- --email you@example.com [--name "Your Name"] [--password …] [--admin] [--moderator]',
  );
  process.exit(1);
}
const password = values.password ?? crypto.randomBytes(12).toString("base64url");
if (password.length < 8) {
  console.error("The password must be at least 8 characters long.");
  process.exit(1);
}
const config = loadConfig();
const db = await openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, "pglite") });
await migrate(db);
await createSiteService(db, config.siteId).ensureDefault();
const scope = ROLES.filter((role) => values[role]);
const [user] = await db.query<{ id: number }>(sql`
  INSERT INTO users (email, email_key, password_hash, name, scope, site_id)
  VALUES (${email.data}, ${email.data.toLowerCase()}, ${await hashPassword(password)}, ${values.name!}, ${array(scope)}::text[], ${config.siteId})
  ON CONFLICT (email_key) DO UPDATE SET scope = ARRAY(SELECT DISTINCT unnest(users.scope || EXCLUDED.scope)),
    password_hash = CASE WHEN ${values.password !== undefined} THEN EXCLUDED.password_hash ELSE users.password_hash END,
    updated_at = now()
  RETURNING id`);
console.log(
  `user #${user.id} ${email.data}${scope.length ? ` (${scope.join(", ")})` : ""}${values.password ? "" : `, password: ${password}`}`,
);
await db.close();
