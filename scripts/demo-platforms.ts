// `npm run demo:platforms [-- --offers <n> --base-port <port>]`: the fake affiliate
// platforms of the tests (tests/fakes/*) on fixed 127.0.0.1 ports, where the demo's
// disabled offer sources point (db/seed/sources.ts), so a newcomer can watch a sync
// end to end. Each fake listens on a port of its own choosing; a forwarder on the
// fixed port passes connections through. Runs until Ctrl-C (or SIGTERM).
import net from "node:net";
import { parseArgs } from "node:util";
import { SOURCE_PLATFORMS, type SourcePlatform } from "#contracts/supply.ts";
import { DEMO_API_KEY, DEMO_PLATFORM_PORTS, demoEndpoint } from "#db/seed/sources.ts";
import { startFakeAffise } from "../tests/fakes/affise.ts";
import { startFakeCake } from "../tests/fakes/cake.ts";
import { startFakeEverflow } from "../tests/fakes/everflow.ts";
import { startFakeFeed } from "../tests/fakes/feed.ts";
import { startFakeTune } from "../tests/fakes/tune.ts";

type Fake = { url: string; close(): Promise<void> };

const STARTERS: Record<SourcePlatform, (count: number) => Promise<Fake>> = {
  everflow: (count) => startFakeEverflow({ apiKey: DEMO_API_KEY, count }),
  tune: (count) => startFakeTune({ apiKey: DEMO_API_KEY, count }),
  cake: (count) => startFakeCake({ apiKey: DEMO_API_KEY, count }),
  affise: (count) => startFakeAffise({ apiKey: DEMO_API_KEY, count }),
  // A public feed: no key asked.
  feed: (count) => startFakeFeed({ count }),
};

const { values } = parseArgs({
  options: { offers: { type: "string", default: "1000" }, "base-port": { type: "string" } },
});
const offers = Number(values.offers);
const basePort = values["base-port"] === undefined ? DEMO_PLATFORM_PORTS.everflow : Number(values["base-port"]);
if (!Number.isInteger(offers) || offers < 1 || offers > 1_000_000) {
  console.error("--offers: a whole number from 1 to 1000000");
  process.exit(2);
}
if (!Number.isInteger(basePort) || basePort < 1024 || basePort > 65_000) {
  console.error("--base-port: a port from 1024 to 65000");
  process.exit(2);
}

/** Passes every connection to `port` on 127.0.0.1 through to `target`. */
function forward(port: number, target: URL): Promise<net.Server> {
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    client.pipe(upstream).pipe(client);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

const running: { fake: Fake; forwarder?: net.Server }[] = [];
async function stop(code: number) {
  for (const { fake, forwarder } of running) {
    forwarder?.close();
    await fake.close();
  }
  process.exit(code);
}
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));

try {
  console.log(`Fake affiliate platforms, ${offers} offers each, API key "${DEMO_API_KEY}":`);
  for (const platform of SOURCE_PLATFORMS) {
    const port = basePort + DEMO_PLATFORM_PORTS[platform] - DEMO_PLATFORM_PORTS.everflow;
    const entry: (typeof running)[number] = { fake: await STARTERS[platform](offers) };
    running.push(entry);
    entry.forwarder = await forward(port, new URL(entry.fake.url));
    console.log(`  ${platform.padEnd(8)} ${demoEndpoint(platform, port)}`);
  }
} catch (err) {
  const busy = (err as NodeJS.ErrnoException).code === "EADDRINUSE";
  console.error(busy ? `A port is taken: ${(err as Error).message} (another demo:platforms?)` : String(err));
  await stop(1);
}

console.log(`
The demo data (npm start on a fresh database) has one disabled source per platform
pointing here. To watch a sync:
  npm run offers:source -- list                 # the demo sources and their ids
  npm run offers:sync -- --source <id>          # one sync now (a disabled source syncs too)
The API key is sealed into the demo sources only when SECRETS_KEY was set at the first
start; otherwise add "${DEMO_API_KEY}" as the source's key in the console
(/admin/sources) first (the feed needs none). Enable a source there to have the
scheduler sync it. Ctrl-C stops the platforms.`);
