// Hostile text is refused once, at the door. A NUL byte (PostgreSQL cannot store
// it) or a lone UTF-16 surrogate (not text at all) anywhere in a path, a query
// string or a body answers 400 `{ message }` before any handler runs, so no
// rate-limit slot is spent and no statement reaches the database.
import type { FastifyInstance } from "fastify";
import { badRequest } from "#core/errors.ts";
import { holdsUnsafeText } from "#contracts/text.ts";

export const UNSAFE_TEXT_MESSAGE = "The request contains characters that are not allowed (NUL bytes or invalid Unicode)";

export function assertSafeText(value: unknown): void {
  if (holdsUnsafeText(value)) throw badRequest(UNSAFE_TEXT_MESSAGE);
}

export function registerInputHygiene(app: FastifyInstance) {
  // Path parameters and the query string are parsed while routing, before the first hook.
  app.addHook("onRequest", async (request) => {
    assertSafeText(request.params);
    assertSafeText(request.query);
  });
  // Bodies parsed by Fastify (JSON); page forms and multipart are checked where they are read.
  app.addHook("preValidation", async (request) => {
    assertSafeText(request.body);
  });
}
