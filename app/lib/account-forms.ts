// Shared plumbing of the account forms' actions: read the posted fields, turn
// a failed parse or a refused service call into `{ message, errors }` for the
// form (never echoing passwords), and build the session cookie header.
import { data } from "react-router";
import type { z } from "zod";
import { fieldErrors, firstIssueMessage } from "#contracts/validation.ts";

export type FormResult = {
  ok: boolean;
  message?: string;
  errors?: Record<string, string>;
  values?: Record<string, string>;
};

export async function readForm(request: Request): Promise<Record<string, string>> {
  const form = await request.formData();
  const out: Record<string, string> = {};
  for (const [key, value] of form) if (typeof value === "string") out[key] = value;
  return out;
}

/** Longest value a refused form shows again: no field takes more, and a page never carries a huge post back. */
const ECHO_MAX = 2000;

/** The values safe to send back into a refused form: only its own fields, never a secret, none oversized. */
export function echoable<V extends string | string[]>(values: Record<string, V>, fields: ReadonlySet<string>): Record<string, V> {
  const fits = (v: V) => (Array.isArray(v) ? v.every((s) => s.length <= ECHO_MAX) : v.length <= ECHO_MAX);
  return Object.fromEntries(Object.entries(values).filter(([k, v]) => fields.has(k) && !/password|token|recaptcha/i.test(k) && fits(v)));
}

// Every field of the account forms that may be typed in again (passwords never are).
const ACCOUNT_FIELDS = new Set(["email", "name", "phone", "company", "messenger", "remember", "redirectTo"]);
const echo = (values: Record<string, string>) => echoable(values, ACCOUNT_FIELDS);

export function invalid(error: z.ZodError, values: Record<string, string>) {
  return data<FormResult>({ ok: false, message: firstIssueMessage(error), errors: fieldErrors(error), values: echo(values) }, { status: 400 });
}

type ServiceError = Error & { status: number; headers?: Record<string, string> };
const isServiceError = (err: unknown): err is ServiceError =>
  err instanceof Error && typeof (err as { status?: unknown }).status === "number" && (err as ServiceError).status < 500;

/**
 * A refused call (4xx from the services) becomes a form failure, with the message
 * shown next to `field` when given; anything else is a real error and rethrown.
 */
export function refused(err: unknown, values: Record<string, string>, field?: string) {
  if (!isServiceError(err)) throw err;
  const errors = field && err.status === 400 ? { [field]: err.message } : {};
  return data<FormResult>({ ok: false, message: err.message, errors, values: echo(values) }, { status: err.status, headers: err.headers });
}
