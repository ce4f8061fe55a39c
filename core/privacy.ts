// Visitors' IP addresses are never stored: only a keyed hash (HMAC-SHA-256 with
// IP_HASH_SALT), enough to group requests by address (rate limits, distinct
// searchers, join clicks) but not reversible by trying every address.
import crypto from "node:crypto";

export const hashIp = (ip: string, salt: string) => crypto.createHmac("sha256", salt).update(ip).digest("hex");
