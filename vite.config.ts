import path from "node:path";
import { pathToFileURL } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import routerConfig from "./react-router.config.ts";

const root = import.meta.dirname;
/** What the Fastify process loads itself: the server render imports it instead of bundling a copy. */
const SHARED_DIRS = ["core", "contracts", "db"].map((dir) => path.join(root, dir) + path.sep);
const SHARED_FILES = [path.join(root, "app", "context.ts")];
/** Where the server render is written (one file, index.js). */
const SERVER_BUILD_DIR = path.join(root, routerConfig.buildDirectory, "server");

/**
 * One module graph for the server and the pages (docs/decisions/0004-one-module-graph.md).
 * In the server render (the "ssr" environment) core/, contracts/, db/ and the request
 * context are the modules the Fastify process loads itself, so a class (HttpError,
 * ZodError) or a context key is one object on both sides:
 * - build: they stay outside the bundle; build/server/index.js imports ../../core/….ts,
 *   which Node loads natively;
 * - dev (Vite's module runner, in the server's own process): each is a shim that hands
 *   over the module Node already loaded (the runner inlines any file it resolves).
 * The browser build still bundles contracts/ and never sees the rest.
 */
function sharedServerModules(): Plugin {
  const SHIM = "\0offeratlas-native:";
  return {
    name: "offeratlas:shared-server-modules",
    enforce: "pre",
    applyToEnvironment: (environment) => environment.name === "ssr",
    async resolveId(source, importer, options) {
      if (!importer || !(source.startsWith("#") || source.startsWith("."))) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved || resolved.external) return null;
      const file = resolved.id.split("?", 1)[0];
      if (!SHARED_FILES.includes(file) && !SHARED_DIRS.some((dir) => file.startsWith(dir))) return null;
      if (this.environment.mode !== "build") return SHIM + file;
      // Relative to the bundle, so a build moves with its sources. (Rolldown's own
      // `external: "relative"` counts from the build directory, one level short.)
      return { id: path.relative(SERVER_BUILD_DIR, file), external: true };
    },
    async load(id) {
      if (!id.startsWith(SHIM)) return null;
      const url = pathToFileURL(id.slice(SHIM.length)).href;
      const names = Object.keys(await import(url)).filter((name) => name !== "default");
      return [
        `const m = await globalThis[Symbol.for("offeratlas.nativeImport")](${JSON.stringify(url)});`,
        names.length ? `export const { ${names.join(", ")} } = m;` : "",
        `export default m.default;`,
      ].join("\n");
    },
  };
}
// Node's own import(), out of reach of the module runner's rewriting.
(globalThis as Record<symbol, unknown>)[Symbol.for("offeratlas.nativeImport")] = (url: string) => import(url);

export default defineConfig({
  plugins: [sharedServerModules(), tailwindcss(), reactRouter()],
  build: { assetsInlineLimit: 0 },
  server: { hmr: { port: 24678 } },
});
