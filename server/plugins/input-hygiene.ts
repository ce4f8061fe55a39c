// Hostile text is refused once, at the door. A NUL byte (PostgreSQL cannot store
// it) or a lone UTF-16 surrogate (not text at all) anywhere in a path, a query
// string or a body answers 400 `{ message }` before any handler runs, so no
// rate-limit slot is spent and no statement reaches the database.
import type { FastifyInstance } from "fastify";
import { badRequest, notFound } from "#core/errors.ts";
import { holdsUnsafeText } from "#contracts/text.ts";

export const UNSAFE_TEXT_MESSAGE =
  "The request contains characters that are not allowed (NUL bytes or invalid Unicode)";

// (Node's HTTP parser already refuses raw control characters; these are the encoded ones.)
const CONTROL_IN_PATH = /%(?:[01][0-9a-f]|7f)/i;

export function assertSafeText(value: unknown): void {
  if (holdsUnsafeText(value)) throw badRequest(UNSAFE_TEXT_MESSAGE);
}

export function registerInputHygiene(app: FastifyInstance) {
  // Path parameters and the query string are parsed while routing, before the first hook.
  app.addHook("onRequest", async (request) => {
    assertSafeText(request.params);
    assertSafeText(request.query);
    // A control character in a path (an encoded newline, tab, …) names nothing on this site.
    if (CONTROL_IN_PATH.test(request.url.split("?", 1)[0])) throw notFound();
  });
  // Bodies parsed by Fastify (JSON); page forms and multipart are checked where they are read.
  app.addHook("preValidation", async (request) => {
    assertSafeText(request.body);
  });
}
