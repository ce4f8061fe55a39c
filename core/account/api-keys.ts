// API keys for the public read API (issue #14). A key is 256
// random bits behind a recognisable marker, handed out once; the database keeps
// only its SHA-256 and the start its owner recognises it by. Verification is one
// indexed lookup by that hash, so nothing compares the secret byte by byte.
//
// Why a fast hash, not a password hash (argon2): a password is guessable and needs
// a slow hash to resist guessing; a 256-bit random key cannot be guessed, so one
// SHA-256 per request is enough to make a leaked table useless, and keeps every
// API call cheap.
import { sql, type Database } from "#db/client.ts";
import {
  API_KEY_MARKER,
  API_KEY_SHOWN_CHARS,
  API_KEYS_PER_USER,
  apiKeyId,
  apiKeyInput,
  type ApiKeySummary,
  type CreatedApiKey,
} from "#contracts/api-keys.ts";
import { HttpError, notFound } from "#core/errors.ts";
import { hashToken, newToken } from "#core/auth/tokens.ts";

/** last_used_at is written at most this often per key, not on every request. */
const TOUCH_EVERY_MS = 60_000;
// Marker plus 32 random bytes in base64url (43 characters); anything far longer is not a key.
const KEY_MAX_LENGTH = 200;
// Keys whose last write is remembered here; forgotten wholesale past this many (a cheap bound).
const REMEMBERED_KEYS = 10_000;

export type VerifiedApiKey = { keyId: number; userId: number };

// The same 256-bit tokens and SHA-256 as sessions and reset links (core/auth/tokens.ts), behind the marker.
const hashKey = hashToken;
const newKey = () => API_KEY_MARKER + newToken();
const shownStart = (key: string) => key.slice(0, API_KEY_MARKER.length + API_KEY_SHOWN_CHARS);

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

export function createApiKeyService(db: Database, options: { now?: () => number } = {}) {
  const now = options.now ?? Date.now;
  // When this process last wrote each key's last_used_at: most requests skip the statement entirely.
  const touchedAt = new Map<number, number>();

  async function touch(keyId: number) {
    const at = now();
    if (at - (touchedAt.get(keyId) ?? -Infinity) < TOUCH_EVERY_MS) return;
    if (touchedAt.size >= REMEMBERED_KEYS) touchedAt.clear();
    touchedAt.set(keyId, at);
    // The condition keeps several instances from writing more than once a minute between them.
    await db.query(sql`
      UPDATE api_keys SET last_used_at = ${new Date(at)}
      WHERE id = ${keyId} AND (last_used_at IS NULL OR last_used_at <= ${new Date(at - TOUCH_EVERY_MS)})`);
  }

  return {
    /** Creates a key; the answer is the only place the key ever appears. */
    async create(userId: number, body: unknown): Promise<CreatedApiKey> {
      const { name } = apiKeyInput.parse(body ?? {});
      const key = newKey();
      return db.transaction(async (tx) => {
        // Locking the account serialises its creations, so two at once cannot pass the limit.
        await tx.query(sql`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`);
        const [{ active }] = await tx.query<{ active: number }>(sql`
          SELECT count(*)::int AS active FROM api_keys WHERE user_id = ${userId} AND revoked_at IS NULL`);
        if (active >= API_KEYS_PER_USER)
          throw new HttpError(
            409,
            `You already have ${API_KEYS_PER_USER} API keys; revoke one you no longer use to create another`,
          );
        const [row] = await tx.query<{ id: number }>(sql`
          INSERT INTO api_keys (user_id, name, prefix, key_hash, created_at)
          VALUES (${userId}, ${name}, ${shownStart(key)}, ${hashKey(key)}, ${new Date(now())})
          RETURNING id`);
        return { id: row.id, key };
      });
    },

    /** The account's active keys, newest first; never the keys themselves. */
    async list(userId: number): Promise<ApiKeySummary[]> {
      const rows = await db.query<{
        id: number;
        name: string;
        prefix: string;
        created_at: Date | string;
        last_used_at: Date | string | null;
      }>(sql`
        SELECT id, name, prefix, created_at, last_used_at FROM api_keys
        WHERE user_id = ${userId} AND revoked_at IS NULL
        ORDER BY created_at DESC, id DESC`);
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        prefix: r.prefix,
        createdAt: iso(r.created_at)!,
        lastUsedAt: iso(r.last_used_at),
      }));
    },

    /** Revokes one of the account's keys at once; another account's (or no) key is 404. */
    async revoke(userId: number, id: unknown): Promise<void> {
      const keyId = apiKeyId(id);
      if (keyId === undefined) throw notFound("No such API key");
      const rows = await db.query(sql`
        UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ${new Date(now())})
        WHERE id = ${keyId} AND user_id = ${userId}
        RETURNING id`);
      if (rows.length === 0) throw notFound("No such API key");
      touchedAt.delete(keyId);
    },

    /** The key's id and owner when `presented` is an active key, else null. */
    async verify(presented: string): Promise<VerifiedApiKey | null> {
      const key = presented.trim();
      // Not worth a query: a key always has the marker and a bounded length.
      if (!key.startsWith(API_KEY_MARKER) || key.length > KEY_MAX_LENGTH) return null;
      const [row] = await db.query<{ id: number; user_id: number }>(sql`
        SELECT id, user_id FROM api_keys WHERE key_hash = ${hashKey(key)} AND revoked_at IS NULL`);
      if (!row) return null;
      await touch(row.id);
      return { keyId: row.id, userId: row.user_id };
    },
  };
}
