// @fastify/under-pressure: process-level load shedding, checked before any route work.
// The health checks opt out (server/api/health.ts): a load balancer must see the process answer.
import v8 from "node:v8";
import underPressure, { type FastifyUnderPressureOptions } from "@fastify/under-pressure";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { Config } from "#server/config.ts";

export async function registerUnderPressure(app: FastifyInstance, pressure: Config["pressure"]) {
  await app.register(underPressure, underPressureOptions(pressure));
}

/**
 * A 503 `{ message }` with Retry-After while the event loop lags (mean delay over a
 * sample), is busier than the set utilization, or the heap nears its limit. The
 * database's own queue (db/client.ts) sheds database work; this catches CPU and
 * memory overload.
 */
function underPressureOptions(pressure: Config["pressure"]): FastifyUnderPressureOptions {
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
