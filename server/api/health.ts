// Liveness (process up) and readiness (database reachable) for load balancers,
// and the process-level load shedding (@fastify/under-pressure) they are exempt from.
import v8 from "node:v8";
import underPressure, { type FastifyUnderPressureOptions } from "@fastify/under-pressure";
import type { FastifyInstance, FastifyReply } from "fastify";
import { sql, startDatabaseWork } from "#db/client.ts";
import type { Services } from "#core/services.ts";
import type { Config } from "../config.ts";

/** /readyz answers within 1 s whatever the database does; the probe gets a little less. */
export const READY_PROBE_MS = 800;

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

/**
 * Load shedding for the whole app: @fastify/under-pressure (below), and each request
 * marked as new work for the database's queue limit (db/client.ts: a request is
 * admitted or refused at its first statement, and then let finish).
 */
export async function registerLoadShedding(app: FastifyInstance, pressure: Config["pressure"]) {
  await app.register(underPressure, underPressureOptions(pressure));
  app.addHook("onRequest", (_request, _reply, done) => {
    startDatabaseWork();
    done();
  });
}

/**
 * Process-level load shedding, checked before any route work: a 503 `{ message }`
 * with Retry-After while the event loop lags (mean delay over a sample), is busier
 * than the set utilization, or the heap nears its limit. The database's own queue
 * (db/client.ts) sheds database work; this catches CPU and memory overload.
 */
export function underPressureOptions(pressure: Config["pressure"]): FastifyUnderPressureOptions {
  const heapLimit = v8.getHeapStatistics().heap_size_limit;
  const shed = (_request: unknown, reply: FastifyReply) => {
    reply.code(503).header("retry-after", "2");
    // A non-empty return value is sent as the answer, and no route work follows.
    return { message: "The service is busy. Please try again in a few seconds." };
  };
  return {
    maxEventLoopDelay: pressure.maxEventLoopDelayMs,
    maxEventLoopUtilization: pressure.maxEventLoopUtilization,
    // Utilization over the last sample, not since start (the plugin's default).
    eventLoopUtilizationMode: "interval",
    maxHeapUsedBytes: pressure.maxHeapFraction > 0 ? Math.round(heapLimit * pressure.maxHeapFraction) : 0,
    sampleInterval: 500,
    exposeStatusRoute: false,
    // Typed as returning void, but the plugin sends what the handler returns.
    pressureHandler: shed as unknown as FastifyUnderPressureOptions["pressureHandler"],
  };
}
