// Each request is new work for the database's queue limit (db/client.ts): it is
// admitted or refused at its first statement, and then let finish.
import type { FastifyInstance } from "fastify";
import { startDatabaseWork } from "#db/client.ts";

export function registerDatabaseAdmission(app: FastifyInstance) {
  // A callback hook, not an async one: the mark must reach this request's own flow.
  app.addHook("onRequest", (_request, _reply, done) => {
    startDatabaseWork();
    done();
  });
}
