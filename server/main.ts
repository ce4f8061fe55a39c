// Process entry: `npm start` (production build) and `npm run dev` (Vite, hot reload).
import "./node-env.ts";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import type { ServerBuild } from "react-router";
import { BUILD_DIR, buildApp } from "./app.ts";
import { openReadDatabase, prepareDatabase } from "./boot.ts";
import { ConfigError, loadConfig } from "./config.ts";

const startedAt = performance.now();
const dev = process.argv.includes("--dev");

let config;
try {
  config = loadConfig(dev ? { NODE_ENV: "development", ...process.env } : process.env);
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}

const log = (msg: string) => console.log(`[offeratlas] ${msg}`);
for (const warning of config.warnings) console.warn(`[offeratlas] warning: ${warning}`);
const db = await prepareDatabase(config, log);
const readDb = await openReadDatabase(config, log);

let app;
if (dev) {
  const { createServer } = await import("vite");
  const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
  const build = () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
  // Vite's middlewares see each request first (modules, HMR); the rest goes to Fastify.
  app = await buildApp({
    config,
    db,
    build,
    readDb,
    dev: true,
    serverFactory: (handler) => http.createServer((req, res) => vite.middlewares(req, res, () => handler(req, res))),
  });
} else {
  const serverEntry = path.join(BUILD_DIR, "server", "index.js");
  if (!fs.existsSync(serverEntry)) {
    console.error(`No build found at ${serverEntry}. Run \`npm run build\` (npm start does it for you).`);
    process.exit(1);
  }
  const build = (await import(serverEntry)) as ServerBuild;
  app = await buildApp({ config, db, readDb, build, clientDir: path.join(BUILD_DIR, "client") });
}

await app.listen({ port: config.port, host: config.host });
log(
  `ready in ${Math.round(performance.now() - startedAt)} ms on ${config.publicUrl} (${db.kind}${dev ? ", dev" : ""})`,
);

let closing = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, async () => {
    if (closing) return;
    closing = true;
    log(`${signal}: closing`);
    await app.close();
    await db.close();
    await readDb?.close();
    process.exit(0);
  });
}
