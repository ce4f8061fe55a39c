// Credentials at rest (issue #13): AES-256-GCM under the key in SECRETS_KEY
// (32 bytes, base64 or hex). Without a key nothing can be stored: the process
// refuses rather than keep a platform's API key in clear.
import crypto from "node:crypto";
import { HttpError } from "#core/errors.ts";

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export const NO_SECRETS_KEY = "SECRETS_KEY is not set: credentials cannot be stored without it";

/** The 32-byte key from SECRETS_KEY (64 hex characters or base64), or an error saying what is wrong. */
export function parseSecretsKey(text: string): Buffer {
  const value = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, "hex") : Buffer.from(value, "base64");
  if (key.length !== 32) throw new Error("SECRETS_KEY must be 32 bytes: 64 hex characters or 44 base64 characters");
  return key;
}

export type Secrets = {
  /** Whether credentials can be stored (a key is configured). */
  readonly available: boolean;
  seal(plain: string): Buffer;
  open(sealed: Buffer): string;
};

export function createSecrets(key: Buffer | undefined): Secrets {
  const need = () => {
    // 503: the operator must configure the process; nothing the caller sent is wrong.
    if (!key) throw new HttpError(503, NO_SECRETS_KEY);
    return key;
  };
  return {
    available: key !== undefined,
    seal(plain) {
      const iv = crypto.randomBytes(IV_BYTES);
      const cipher = crypto.createCipheriv("aes-256-gcm", need(), iv);
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
    },
    open(sealed) {
      if (sealed[0] !== VERSION) throw new Error("Unknown credentials format");
      const iv = sealed.subarray(1, 1 + IV_BYTES);
      const tag = sealed.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
      const decipher = crypto.createDecipheriv("aes-256-gcm", need(), iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(sealed.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
        "utf8",
      );
    },
  };
}
