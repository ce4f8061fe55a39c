// Process-level load shedding (@fastify/under-pressure, server/api/health.ts): while
// the process is under pressure every request is answered 503 `{ message }` with
// Retry-After before any work, except the health checks.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFaultApp, type FaultApp } from "../helpers/faults.ts";

describe("under pressure", () => {
  let t: FaultApp;
  beforeAll(async () => {
    // A heap bound no process can meet: permanently "under pressure" once sampled.
    t = await createFaultApp({
      env: { PRESSURE_MAX_HEAP_FRACTION: "0.0001" },
      seed: { networks: 3, offers: 30, trafficSources: 1 },
    });
    await new Promise((r) => setTimeout(r, 700)); // the first sample (every 500 ms)
  });
  afterAll(() => t?.close());

  it("sheds API and page requests with 503 { message } and Retry-After", async () => {
    const search = await t.app.inject({ method: "POST", url: "/api/offers/search", payload: { query: "casino" } });
    expect(search.statusCode).toBe(503);
    expect(typeof search.json().message).toBe("string");
    expect(Number(search.headers["retry-after"])).toBeGreaterThan(0);
    const page = await t.app.inject({ method: "GET", url: "/" });
    expect(page.statusCode).toBe(503);
    expect(Number(page.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("keeps /healthz and /readyz answering", async () => {
    expect((await t.app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
    const ready = await t.app.inject({ method: "GET", url: "/readyz" });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().status).toBe("ok");
  });
});
