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

/** The fields safe to send back into the form after a failure. */
const echo = (values: Record<string, string>) =>
  Object.fromEntries(Object.entries(values).filter(([k]) => !/password|token|recaptcha/i.test(k)));

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
