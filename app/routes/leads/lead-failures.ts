// A lead form's post that fails before its action can answer (no connection, a server
// fault, a 429 or 503 from the server's door or a proxy) would replace the form with the
// error page and lose what was typed. The lead pages' clientAction keeps the form and
// turns the failure into a refusal, which the ERROR notification shows with the message
// of the response body when it has one (docs/product.md §8).
import { isRouteErrorResponse } from "react-router";
import type { FormResult } from "#app/ui/form/form.ts";

export const NO_CONNECTION = "The form could not be sent: the server could not be reached. Please try again.";
/** docs/product.md §2: the error page's words for a status above 500. */
export const SERVER_FAULT = "Sorry! The application has encountered a server error";

/** The `message` field of an error answer's body (our `{ message }` JSON), if it has one. */
function bodyMessage(body: unknown): string | undefined {
  let value = body;
  if (typeof body === "string") {
    try {
      value = JSON.parse(body);
    } catch {
      return undefined;
    }
  }
  const message = (value as { message?: unknown } | null)?.message;
  return typeof message === "string" && message.trim() ? message : undefined;
}

/** What the visitor is told about a post that got no answer from the page's action. */
function failureMessage(err: unknown): string {
  if (isRouteErrorResponse(err)) {
    return bodyMessage(err.data) ?? (err.status >= 500 || !err.statusText ? SERVER_FAULT : err.statusText);
  }
  // fetch rejects with a TypeError when the request never got an answer.
  if (err instanceof TypeError) return NO_CONNECTION;
  return SERVER_FAULT;
}

/** The clientAction of every lead page: the server's answer, or the failure as the form's refusal. */
export async function leadClientAction({
  serverAction,
}: {
  serverAction: () => Promise<unknown>;
}): Promise<FormResult> {
  try {
    return (await serverAction()) as FormResult;
  } catch (err) {
    // A redirect is an answer, not a failure.
    if (err instanceof Response) throw err;
    return { ok: false, message: failureMessage(err) };
  }
}
