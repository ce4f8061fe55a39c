// Overload on the embedded database (PGlite: one WASM connection on the event
// loop), served as `npm start` serves it (default limits) with the caches off.
// 200 connections of uncached work for 4 s each: the process must shed what it
// cannot serve with 503, answer every request (no client timeout at 10 s), and
// keep /healthz fast. PostgreSQL's run skips this file (its faults are in postgres.test.ts).
//
// "Fast" is measured against the machine: first 200 connections flood /healthz
// itself (the cheapest request there is) and the health probe's p99 under that is
// the calibration. Under database overload the typical (median) /healthz must stay
// under 200 ms, or under 3x the calibration on a machine too loaded to reach 200 ms
// even then, and no probe may wait 2 s (the database's wait bound). Before the
// database's turns existed, the probe did not answer within 10 s. The slowest probe
// is not held to the calibration: one PGlite query blocks the loop while it runs, and
// in CI the other suite's processes can stretch one such turn to a second.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_DATABASE_URL } from "../helpers/database.ts";
import { createFaultApp, type FaultApp } from "../helpers/faults.ts";
import { runLoad, summarize, type LoadReport } from "../helpers/load.ts";

const CONNECTIONS = 200;
const DURATION_MS = 4000;
const CLIENT_TIMEOUT_MS = 10_000;
// More offers make each search slower (FAULT_OFFERS=5000 for a heavier run by hand).
const OFFERS = Number(process.env.FAULT_OFFERS) || 1500;

describe.skipIf(Boolean(TEST_DATABASE_URL))("overload on the embedded database", () => {
  let t: FaultApp;
  let healthzBound = 200;
  beforeAll(async () => {
    t = await createFaultApp({ seed: { networks: 20, offers: OFFERS, trafficSources: 4 } });
  });
  afterAll(() => t?.close());

  /** Runs the load while sampling this (the server's) event loop. */
  async function load(
    kind: "search" | "page" | "get",
    extra: { cookie?: string; path?: string; durationMs?: number } = {},
  ) {
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const report = await runLoad({
      port: t.port,
      kind,
      connections: CONNECTIONS,
      durationMs: DURATION_MS,
      timeoutMs: CLIENT_TIMEOUT_MS,
      ...extra,
    });
    loop.disable();
    const loopMaxMs = loop.max / 1e6;
    console.log(
      `${kind}:\n  ${summarize(report)}\n  server event loop: max delay ${loopMaxMs.toFixed(0)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(0)} ms`,
    );
    return { report, loopMaxMs };
  }

  function expectShedNotStalled({ report: r, loopMaxMs }: { report: LoadReport; loopMaxMs: number }) {
    expect(r.timeouts).toBe(0);
    expect(r.errors).toBe(0);
    expect(Object.keys(r.statuses).filter((s) => s !== "200" && s !== "503")).toEqual([]);
    expect(r.statuses[200] ?? 0).toBeGreaterThan(0);
    // Every answer within the database's wait bound (2 s) and a little: never the client's 10 s.
    expect(Math.max(r.latency["2xx"].max, r.latency["503"].max)).toBeLessThan(CLIENT_TIMEOUT_MS * 0.8);
    expect(r.probe.failures).toBe(0);
    expect(r.probe.count).toBeGreaterThan(5);
    expect(r.probe.p50).toBeLessThan(healthzBound);
    expect(r.probe.max).toBeLessThan(2000);
    // The server's loop was never held for long (it was for seconds before).
    expect(loopMaxMs).toBeLessThan(2000);
  }

  it("calibration: 200 connections flooding /healthz itself", async () => {
    const { report } = await load("get", { path: "/healthz", durationMs: 2500 });
    expect(report.timeouts).toBe(0);
    healthzBound = Math.max(200, 3 * report.probe.p99);
    console.log(`/healthz bound under overload: ${healthzBound.toFixed(0)} ms`);
  }, 30_000);

  it("200 connections of distinct searches: shed with 503, no timeouts, /healthz fast", async () => {
    expectShedNotStalled(await load("search"));
  }, 30_000);

  it("200 connections of page views with a cookie: shed with 503, no timeouts, /healthz fast", async () => {
    expectShedNotStalled(await load("page", { cookie: "auth._token.local=not-a-session" }));
  }, 30_000);

  it("serves normally once the load is gone", async () => {
    const res = await fetch(`${t.baseUrl}/api/offers/search`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "casino" }),
    });
    expect(res.status).toBe(200);
    expect((await fetch(`${t.baseUrl}/readyz`)).status).toBe(200);
  });
});
