// Liveness (process up) and readiness (database reachable) for load balancers,
// exempt from the process-level load shedding (server/plugins/external/under-pressure.ts).
import type { FastifyInstance } from "fastify";
import { sql } from "#db/client.ts";
import type { Services } from "#core/services.ts";

/** /readyz answers within 1 s whatever the database does; the probe gets a little less. */
const READY_PROBE_MS = 800;

// Health checks are never shed: a load balancer must see the process answer.
const exempt = { pressureHandler: () => undefined };

export async function healthRoutes(app: FastifyInstance, { services }: { services: Services }) {
  app.get("/healthz", { config: exempt }, async () => ({ status: "ok" }));
  app.get("/readyz", { config: exempt }, async (_request, reply) => {
    const probe = services.db.query(sql`SELECT 1`).then(() => "ok" as const);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => {
      timer = setTimeout(() => resolve("late"), READY_PROBE_MS);
    });
    try {
      if ((await Promise.race([probe, late])) === "ok") return { status: "ok", database: services.db.kind };
      probe.catch(() => {}); // its late answer (or failure) is not awaited
      reply.log.warn(`database did not answer /readyz within ${READY_PROBE_MS} ms`);
    } catch (err) {
      reply.log.warn({ err }, "database not reachable");
    } finally {
      clearTimeout(timer);
    }
    return reply.status(503).header("retry-after", "5").send({ message: "Database not reachable" });
  });
}
