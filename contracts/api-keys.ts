// API keys for the public read API (issue #14): what the account page and
// /api/account/api-keys send and receive. A key is shown once, in the answer that
// creates it; the list carries only its recognisable start.
import { z } from "zod";
import { isStorableText } from "./text.ts";
import { integerInput } from "./validation.ts";

/** Every key starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const API_KEY_MARKER = "oa_live_";
/** How many random characters after the marker the list shows, to tell keys apart. */
export const API_KEY_SHOWN_CHARS = 8;
/** Active keys one account may hold; a revoked key does not count. */
export const API_KEYS_PER_USER = 10;
export const API_KEY_NAME_MAX = 60;

export const apiKeyInput = z.strictObject(
  {
    name: z
      .string({ error: "Name must be text" })
      .trim()
      .max(API_KEY_NAME_MAX, `Name must be at most ${API_KEY_NAME_MAX} characters long`)
      .refine(isStorableText, "Name must be text")
      .optional()
      .transform((v) => v ?? ""),
  },
  { error: "Unknown field" },
);

/** The answer that creates a key: the only time `key` is ever sent. */
export type CreatedApiKey = { id: number; key: string };

/** A key as its owner's list shows it; never the key itself. */
export type ApiKeySummary = {
  id: number;
  name: string;
  /** The key's start (marker and the first random characters), to recognise it. */
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
};

/** A key's id from a path segment or form field; anything but a positive safe integer names no key. */
export function apiKeyId(raw: unknown): number | undefined {
  const n = integerInput(raw);
  return typeof n === "number" && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}
