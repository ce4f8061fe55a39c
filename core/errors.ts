// The one domain-error type. Services throw an HttpError (or let a ZodError from
// a contract schema through); `refusalOf` turns either into what every client is
// told — the API's error handler as `{ message }`, a page action as its form's
// message and field errors — so both map a failure the same way.
import { ZodError } from "zod";
import { fieldErrors, firstIssueMessage } from "#contracts/validation.ts";

export class HttpError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.headers = headers;
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const notFound = (message = "Not found") => new HttpError(404, message);

/** A failure the client is told about: its status, its message, the messages per form field, headers (Retry-After). */
export type Refusal = {
  status: number;
  message: string;
  errors: Record<string, string>;
  headers: Record<string, string>;
};

/** The refusal an error stands for, or undefined for a fault (a bug, a lost dependency without its own status). */
export function refusalOf(err: unknown): Refusal | undefined {
  if (err instanceof HttpError) return { status: err.status, message: err.message, errors: {}, headers: err.headers };
  if (err instanceof ZodError)
    return { status: 400, message: firstIssueMessage(err), errors: fieldErrors(err), headers: {} };
  return undefined;
}
