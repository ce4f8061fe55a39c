import { describe, expect, it } from "vitest";
import { nodeFlagsOf, serverNodeFlags } from "./node-flags.ts";

describe("the server's Node.js flags", () => {
  it("are read from the start script's node command, and only from it", () => {
    expect(nodeFlagsOf("node scripts/check-node.cjs && node --a=1 --b server/main.ts")).toEqual(["--a=1", "--b"]);
    expect(nodeFlagsOf("node server/main.ts --dev")).toEqual([]);
    expect(() => nodeFlagsOf("node dist/server.js")).toThrow(/server\/main\.ts/);
  });

  it("keep the young generation small, so the server does not hold on to its peak (decision 0044)", () => {
    // The benchmark and the audit start the server with these flags: they measure what `npm start` runs.
    expect(serverNodeFlags()).toContain("--max-semi-space-size=8");
  });
});
