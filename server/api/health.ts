// Liveness (process up) and readiness (database reachable) for load balancers.
import type { FastifyInstance } from "fastify";
import { sql } from "#db/client.ts";
import type { Services } from "#core/services.ts";

export async function healthRoutes(app: FastifyInstance, { services }: { services: Services }) {
  app.get("/healthz", async () => ({ status: "ok" }));
  app.get("/readyz", async (_request, reply) => {
    try {
      await services.db.query(sql`SELECT 1`);
      return { status: "ok", database: services.db.kind };
    } catch (err) {
      reply.log.warn({ err }, "database not reachable");
      return reply.status(503).send({ message: "Database not reachable" });
    }
  });
}
