// Zod building blocks that speak the spec's messages, shared by browser and server.
import { z } from "zod";
import { messages } from "./messages.ts";

export { messages };

const text = (v: unknown) => (typeof v === "string" ? v : String(v ?? ""));

/** A required, trimmed string: empty → "{field} cannot be blank". */
export const requiredText = (field: string, max = 500) =>
  z
    .string({ error: messages.required(field) })
    .trim()
    .min(1, messages.required(field))
    .max(max, `${field} must be at most ${max} characters long`);

export const optionalText = (field: string, max = 500) =>
  z
    .string()
    .trim()
    .max(max, `${field} must be at most ${max} characters long`)
    .optional()
    .transform((v) => (v ? v : undefined));

export const emailField = (field = "Email") =>
  requiredText(field, 254).pipe(
    z.string().refine((v) => z.email().safeParse(v).success, { error: (i) => messages.email(text(i.input)) }),
  );

export const minLengthText = (field: string, n: number, max = 200) =>
  z
    .string({ error: messages.required(field) })
    .min(1, messages.required(field))
    .min(n, messages.minLength(field, n))
    .max(max, `${field} must be at most ${max} characters long`);

/**
 * An integer sent as text must be plain decimal digits, with a leading minus for
 * negatives: "42", "-3", "007". Anything else that Number() would accept ("0x5",
 * "5e0", " 5", "5.0", "Infinity", "+5") stays a string and fails as "must be an
 * integer"; "" means the field is absent. Numbers pass through unchanged.
 */
const DECIMAL_INTEGER = /^-?[0-9]+$/;
export const integerInput = (v: unknown): unknown =>
  typeof v !== "string" ? v : v === "" ? undefined : DECIMAL_INTEGER.test(v) ? Number(v) : v;

export const integerField = (field: string, min?: number) =>
  z.preprocess(
    integerInput,
    z
      .number({ error: (i) => (i.input === undefined ? messages.required(field) : messages.integer(field)) })
      .int(messages.integer(field))
      .refine((n) => min === undefined || n >= min, messages.minValue(field, min ?? 0)),
  );

// Digits with optional +, spaces, dashes, dots and brackets; 7–15 digits in all.
const PHONE = /^\+?[0-9 ()\-.]{7,24}$/;
const isPhoneNumber = (v: string) =>
  PHONE.test(v) && (v.match(/[0-9]/g)?.length ?? 0) >= 7 && (v.match(/[0-9]/g)?.length ?? 0) <= 15;

/** Optional phone: whitespace is stripped; empty is valid and becomes undefined. */
export const phoneField = () =>
  z
    .string()
    .optional()
    .transform((v) => (v ?? "").replace(/\s+/g, ""))
    .refine((v) => v === "" || isPhoneNumber(v), { error: (i) => messages.phoneNumber(text(i.input)) })
    .transform((v) => (v === "" ? undefined : v));

export const urlField = (field: string) =>
  requiredText(field, 2000).pipe(
    z.string().refine(
      (v) => {
        try {
          const u = new URL(/^[a-z][a-z0-9+.-]*:/i.test(v) ? v : `https://${v}`);
          return (u.protocol === "http:" || u.protocol === "https:") && u.hostname.includes(".");
        } catch {
          return false;
        }
      },
      { error: (i) => messages.url(text(i.input)) },
    ),
  );

/**
 * A person's name: letters of any language (with their accents, \p{M}), and the spaces, apostrophes,
 * hyphens and periods real names carry ("Seán O'Brien", "Jean-Luc", "J. R. Smith"), starting with a
 * letter. Anything else (digits, symbols) gets the spec's alpha_spaces message.
 */
const PERSON_NAME = /^\p{L}[\p{L}\p{M} '’.-]*$/u;

export const alphaSpacesField = (field: string, max = 100) =>
  requiredText(field, max).pipe(z.string().regex(PERSON_NAME, messages.alphaSpaces(field)));

/** The first message of a failed parse: what an API 400 answer says. */
export function firstIssueMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? "Invalid request";
}

/** Messages keyed by field name, for showing next to form fields. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "_form";
    out[key] ??= issue.message;
  }
  return out;
}
