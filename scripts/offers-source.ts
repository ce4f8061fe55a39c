// `npm run offers:source -- add --network <id> --platform everflow|tune|cake|affise|feed --url <endpoint or file URL>
//   [--api-key <key>] [--every <minutes>] [--retire-after <runs>] [--affiliate-id <id>] [--setting <name>=<value> ...]`
// adds a network's offer source and prints its id on
// the last line (just the number); `npm run offers:source -- list [--network <id>]` lists sources with their last run.
// Against DATA_DIR (embedded) or DATABASE_URL, like `npm start`. Exit codes: 2 for bad arguments (the message on
// stderr), 1 for any other failure (no SECRETS_KEY to seal an API key with, the database away).
import path from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "#db/client.ts";
import { migrate } from "#db/migrate.ts";
import { refusalOf } from "#core/errors.ts";
import { createSiteService } from "#core/sites/sites.ts";
import { createSecrets } from "#core/supply/secrets.ts";
import { checkedSourceInput, createOfferSources } from "#core/supply/sources.ts";
import { loadConfig } from "#server/config.ts";
import { SOURCE_PLATFORMS, type OfferSource } from "#contracts/supply.ts";

const USAGE = [
  "Usage:",
  `  npm run offers:source -- add --network <id> --platform ${SOURCE_PLATFORMS.join("|")} --url <endpoint or file URL>`,
  "                              [--api-key <key>] [--every <minutes>] [--retire-after <runs>]",
  "                              [--affiliate-id <id> (CAKE)] [--setting <name>=<value> ...]",
  "  npm run offers:source -- list [--network <id>] [--page <n>]",
].join("\n");

function badArguments(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

let parsed: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    allowPositionals: true,
    options: {
      network: { type: "string" },
      platform: { type: "string" },
      url: { type: "string" },
      "api-key": { type: "string" },
      every: { type: "string" },
      "retire-after": { type: "string" },
      "affiliate-id": { type: "string" },
      setting: { type: "string", multiple: true },
      page: { type: "string" },
    },
  });
}
try {
  parsed = parse();
} catch (err) {
  badArguments((err as Error).message);
}
const { values, positionals } = parsed;
const [command, ...extra] = positionals;
if (command !== "add" && command !== "list") badArguments(command ? `Unknown command: ${command}` : "Name a command.");
if (extra.length) badArguments(`Unexpected argument: ${extra[0]}`);
const allowed =
  command === "add"
    ? ["network", "platform", "url", "api-key", "every", "retire-after", "affiliate-id", "setting"]
    : ["network", "page"];
for (const name of Object.keys(values))
  if (!allowed.includes(name)) badArguments(`--${name} does not apply to ${command}`);
if (command === "add")
  for (const name of ["network", "platform", "url"] as const)
    if (values[name] === undefined) badArguments(`--${name} is required`);

/** The source's settings from --setting name=value (repeatable) and --affiliate-id; none given: undefined. */
function settingsOf(): Record<string, string> | undefined {
  const settings: Record<string, string> = {};
  for (const pair of values.setting ?? []) {
    const at = pair.indexOf("=");
    if (at < 1) badArguments(`--setting must be <name>=<value>, not ${pair}`);
    settings[pair.slice(0, at)] = pair.slice(at + 1);
  }
  if (values["affiliate-id"] !== undefined) settings.affiliate_id = values["affiliate-id"];
  return Object.keys(settings).length ? settings : undefined;
}

const runCount = (s: OfferSource) => {
  const run = s.lastRun;
  if (!run) return "never run";
  const counts = `seen ${run.seen}, new ${run.new}, changed ${run.changed}, unchanged ${run.unchanged}, retired ${run.retired}, skipped ${run.skipped}`;
  return `last run ${run.status} ${run.finishedAt ?? run.startedAt}: ${counts}${run.error ? ` (${run.error})` : ""}`;
};

const describe = (s: OfferSource) =>
  [
    `#${s.id} network #${s.networkId} ${s.networkName}`,
    s.platform,
    s.endpoint,
    `every ${s.everyMinutes} min`,
    s.enabled ? "enabled" : "disabled",
    s.hasCredentials ? "with API key" : "no API key",
    s.state + (s.lastError ? ` (${s.lastError})` : ""),
    runCount(s),
  ].join(" · ");

/** What `add` stores, from the arguments. */
const sourceBody = () => ({
  networkId: values.network,
  platform: values.platform,
  endpoint: values.url,
  apiKey: values["api-key"],
  everyMinutes: values.every,
  retireAfterRuns: values["retire-after"],
  settings: settingsOf(),
});

const config = loadConfig();
// What can be checked without the database is checked before opening it.
if (command === "add")
  try {
    checkedSourceInput(sourceBody(), config.dataDir);
  } catch (err) {
    const refusal = refusalOf(err);
    if (refusal?.status === 400) badArguments(refusal.message);
    throw err;
  }
const db = await openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, "pglite") });
let exitCode = 0;
try {
  await migrate(db);
  await createSiteService(db, config.siteId).ensureDefault();
  const sources = createOfferSources(db, createSecrets(config.secretsKey), { dataDir: config.dataDir });
  if (command === "add") {
    const source = await sources.add({ siteId: config.siteId, userId: null }, sourceBody());
    console.log(describe(source));
    console.log(String(source.id));
  } else {
    const list = await sources.list({ networkId: values.network, page: values.page });
    for (const source of list.items) console.log(describe(source));
    console.log(
      `${list.total} source${list.total === 1 ? "" : "s"}` +
        (list.total > list.pageSize ? `, page ${list.page} of ${Math.ceil(list.total / list.pageSize)}` : ""),
    );
  }
} catch (err) {
  const refusal = refusalOf(err);
  // A refused value (400, an unknown network) is a bad argument; anything else is a failure.
  if (refusal?.status === 400) {
    console.error(`${refusal.message}\n${USAGE}`);
    exitCode = 2;
  } else {
    console.error(refusal ? refusal.message : `offers:source failed: ${(err as Error).message}`);
    exitCode = 1;
  }
} finally {
  await db.close();
}
process.exit(exitCode);
