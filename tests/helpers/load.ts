// Bounded load against a test server on 127.0.0.1, generated in a worker thread
// so that a stalled server loop cannot distort the client's clock (see load-worker.ts).
import { Worker } from "node:worker_threads";
import type { LoadOptions, LoadReport } from "./load-worker.ts";

export type { LoadReport };

export async function runLoad(options: Partial<LoadOptions> & Pick<LoadOptions, "port" | "kind">): Promise<LoadReport> {
  for (const [k, v] of Object.entries(options)) if (v === undefined) delete (options as Record<string, unknown>)[k];
  const o: LoadOptions = {
    connections: 200,
    durationMs: 4000,
    timeoutMs: 10_000,
    probePath: "/healthz",
    probeIntervalMs: 50,
    ...options,
  };
  // The load and the health probe run in threads of their own: the probe's clock
  // is then disturbed neither by the server's loop nor by the load generator's.
  const [load, probe] = await Promise.all([inWorker({ ...o, role: "load" }), inWorker({ ...o, role: "probe" })]);
  return { ...load, probe: probe.probe };
}

async function inWorker(o: LoadOptions): Promise<LoadReport> {
  const worker = new Worker(new URL("./load-worker.ts", import.meta.url), { workerData: o });
  // Hard stop: the worker ends by itself; this only guards against a hung worker.
  const limit = setTimeout(() => void worker.terminate(), o.durationMs + o.timeoutMs + 5000);
  try {
    return await new Promise<LoadReport>((resolve, reject) => {
      worker.once("message", (m: { report?: LoadReport; error?: string }) =>
        m.report ? resolve(m.report) : reject(new Error(m.error)),
      );
      worker.once("error", reject);
      worker.once("exit", (code) => reject(new Error(`load worker exited (${code}) without a report`)));
    });
  } finally {
    clearTimeout(limit);
    await worker.terminate();
  }
}

/** A one-line summary for test output and reports. */
export function summarize(r: LoadReport): string {
  const l = (k: string) =>
    r.latency[k]?.count
      ? `${k} p50/p99/max ${r.latency[k].p50.toFixed(0)}/${r.latency[k].p99.toFixed(0)}/${r.latency[k].max.toFixed(0)} ms`
      : `${k} none`;
  return [
    `sent ${r.sent} in ${r.elapsedMs} ms, statuses ${JSON.stringify(r.statuses)}, timeouts ${r.timeouts}, errors ${r.errors}`,
    `${l("2xx")}; ${l("503")}; ${l("other")}`,
    `probe /healthz n=${r.probe.count} p50 ${r.probe.p50.toFixed(1)} p99 ${r.probe.p99.toFixed(1)} max ${r.probe.max.toFixed(1)} ms, failures ${r.probe.failures}`,
  ].join("\n  ");
}
