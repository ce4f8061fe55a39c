// The shared state's behaviour when Redis is away (the site goes on, one warning per
// outage) and, when a Redis listens on 127.0.0.1:6379, across two connections.
import crypto from "node:crypto";
import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { connectShared, type SharedState } from "./redis.ts";

const redisUp = await new Promise<boolean>((resolve) => {
  const socket = net.connect(6379, "127.0.0.1", () => (socket.end(), resolve(true)));
  socket.setTimeout(500, () => (socket.destroy(), resolve(false)));
  socket.on("error", () => resolve(false));
});

const opened: SharedState[] = [];
afterAll(() => Promise.all(opened.map((s) => s.close())));

const recorder = () => {
  const lines: string[] = [];
  return { lines, log: { info: (m: string) => lines.push(`info ${m}`), warn: (m: string) => lines.push(`warn ${m}`) } };
};

describe("shared state in Redis", () => {
  it("with Redis away: starts within its timeout, misses promptly, warns once, edits still count here", async () => {
    const { lines, log } = recorder();
    const started = performance.now();
    const shared = await connectShared("redis://127.0.0.1:1", { prefix: "t:", log });
    opened.push(shared);
    const misses = await Promise.all(Array.from({ length: 5 }, () => shared.store.get("k")));
    shared.store.set("k", { a: 1 }, 1000);
    expect(misses).toEqual(Array(5).fill(undefined));
    expect(performance.now() - started).toBeLessThan(2500);
    let heard = 0;
    shared.generation.onChange(() => heard++);
    shared.generation.bump();
    expect([shared.generation.current(), heard]).toEqual([1, 1]);
    await sleep(50);
    expect(lines.filter((l) => l.startsWith("warn"))).toHaveLength(1);
  });

  it.skipIf(!redisUp)("shares copies and the catalogue's generation between connections", async () => {
    const prefix = `offeratlas-test-${crypto.randomBytes(4).toString("hex")}:`;
    const [a, b] = await Promise.all(
      [1, 2].map(() => connectShared("redis://127.0.0.1:6379", { prefix, log: recorder().log })),
    );
    opened.push(a, b);
    a.store.set("search:k", { offers: [1, 2] }, 5000);
    await sleep(50);
    const copy = await b.store.get("search:k");
    expect(copy?.value).toEqual({ offers: [1, 2] });
    expect(Date.now() - copy!.storedAt).toBeLessThan(1000);

    let heard = 0;
    b.generation.onChange(() => heard++);
    a.generation.bump();
    for (let i = 0; i < 100 && heard === 0; i++) await sleep(10);
    expect([b.generation.current(), heard]).toEqual([a.generation.current(), 1]);

    const redis = new Redis("redis://127.0.0.1:6379");
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });
});
