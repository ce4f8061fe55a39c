import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin, type Rolldown } from "vite";
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

/**
 * The contracts declare zod schemas at the top of each module, and a bundler must
 * assume that running them may have side effects, so one constant imported from a
 * contract shipped all of zod (25 kB gzipped) to every page. In the browser build,
 * each top-level constant of contracts/ whose initialiser runs code is wrapped in a
 * function called once and marked pure: a schema no page code uses is dropped, and
 * zod with it where no form validates in the browser (docs/decisions/0024).
 */
function pureContractConstants(): Plugin {
  const dir = path.join(root, "contracts") + path.sep;
  type Node = { type: string; start: number; end: number; [key: string]: unknown };
  const isNode = (v: unknown): v is Node => !!v && typeof v === "object" && typeof (v as Node).type === "string";
  /**
   * Whether evaluating `node` may run code: a call, `new`, a spread, a property read
   * (a getter: zod's `.shape` is one) — functions it defines run later.
   */
  const runsCode = (node: unknown): boolean => {
    if (Array.isArray(node)) return node.some(runsCode);
    if (!isNode(node) || /Function/.test(node.type)) return false;
    if (/^(CallExpression|NewExpression|SpreadElement|TaggedTemplateExpression|MemberExpression)$/.test(node.type))
      return true;
    return Object.entries(node).some(([key, value]) => key !== "type" && runsCode(value));
  };
  return {
    name: "offeratlas:pure-contract-constants",
    apply: "build", // only a bundle is tree-shaken
    applyToEnvironment: (environment) => environment.name === "client",
    transform(code, id) {
      if (!id.startsWith(dir)) return null;
      const inits: Node[] = [];
      for (let statement of this.parse(code).body as unknown as Node[]) {
        if (statement.type === "ExportNamedDeclaration" && isNode(statement.declaration))
          statement = statement.declaration;
        if (statement.type !== "VariableDeclaration") continue;
        for (const { init } of statement.declarations as { init: unknown }[])
          if (isNode(init) && runsCode(init)) inits.push(init);
      }
      let out = code;
      for (const init of inits.sort((x, y) => y.start - x.start))
        out = `${out.slice(0, init.start)}/* @__PURE__ */ (() => (${out.slice(init.start, init.end)}))()${out.slice(init.end)}`;
      return { code: out, map: null };
    },
  };
}

/**
 * The browser build renders and hydrates with Preact's React compatibility layer
 * instead of react-dom: react-dom alone is 64 kB gzipped, more than half of the
 * 100 kB a page may load (docs/decisions/0035-preact-in-the-browser.md). The server
 * render and the dev server (React Refresh) keep React.
 */
function preactInTheBrowser(): Plugin {
  const shim = path.join(root, "app", "browser", "react-on-preact.ts");
  const targets: Record<string, string> = {
    react: shim,
    "react-dom": "preact/compat",
    "react-dom/client": path.join(root, "app", "browser", "react-dom-client-on-preact.ts"),
    "react/jsx-runtime": "preact/compat/jsx-runtime",
    "react/jsx-dev-runtime": "preact/compat/jsx-dev-runtime",
  };
  return {
    name: "offeratlas:preact-in-the-browser",
    apply: "build",
    enforce: "pre",
    applyToEnvironment: (environment) => environment.name === "client",
    resolveId(source, _importer, options) {
      const target = targets[source];
      if (!target) return null;
      return this.resolve(target, shim, { ...options, skipSelf: true });
    },
  };
}

/**
 * The browser's files are compressed once, at build time, at the highest settings (brotli 11,
 * gzip 9), and served as they are (@fastify/static's `preCompressed`): smaller than what a
 * server can afford to compress per request, and no CPU per request (docs/decisions/0036).
 */
function precompressedAssets(): Plugin {
  const COMPRESSIBLE = /\.(js|css|svg)$/;
  return {
    name: "offeratlas:precompressed-assets",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    writeBundle(output, bundle) {
      const dir = output.dir ?? "";
      for (const fileName of Object.keys(bundle)) {
        if (!COMPRESSIBLE.test(fileName)) continue;
        const file = path.join(dir, fileName);
        const bytes = fs.readFileSync(file);
        const copies = {
          br: zlib.brotliCompressSync(bytes, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
            },
          }),
          gz: zlib.gzipSync(bytes, { level: zlib.constants.Z_BEST_COMPRESSION }),
        };
        // Even a small module shrinks by half; a copy that saves nothing is not written.
        for (const [extension, copy] of Object.entries(copies))
          if (copy.length < bytes.length) fs.writeFileSync(`${file}.${extension}`, copy);
      }
    },
  };
}

/**
 * One chunk, "shell", for the modules the root route imports statically: every page loads
 * all of them, so merging them costs no page a byte, and saves the ten or so requests the
 * default splitting made of them (a module the root shares with a route got a chunk of its
 * own). Over HTTP/1.1 a browser opens six connections to a host, so each six requests on
 * the way to a page cost it another round trip (docs/decisions/0038-one-shell-chunk.md).
 * zod is left out: the root's imports reach it only through contracts whose schemas the
 * build drops, and the pages load it when a form needs it (docs/decisions/0033).
 */
function oneShellChunk(): Plugin {
  const rootRoute = path.join(root, "app", "root.tsx");
  const lazyOnly = /[\\/]node_modules[\\/]zod[\\/]/;
  let shell: Set<string> | undefined;
  /** Every module `start` imports statically, at any depth, and `start` itself. */
  function staticImports(start: string, info: Rolldown.ChunkingContext["getModuleInfo"]): Set<string> {
    const seen = new Set<string>();
    const pending = [start];
    for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
      if (seen.has(id)) continue;
      seen.add(id);
      pending.push(...(info(id)?.importedIds ?? []));
    }
    return seen;
  }
  return {
    name: "offeratlas:one-shell-chunk",
    apply: "build",
    configEnvironment: (name) =>
      name === "client"
        ? {
            build: {
              rolldownOptions: {
                output: {
                  codeSplitting: {
                    groups: [
                      {
                        name(id, ctx) {
                          shell ??= staticImports(rootRoute, (m) => ctx.getModuleInfo(m));
                          return shell.has(id) && !lazyOnly.test(id) ? "shell" : null;
                        },
                      },
                    ],
                  },
                },
              },
            },
          }
        : undefined,
  };
}

export default defineConfig({
  plugins: [
    oneShellChunk(),
    sharedServerModules(),
    pureContractConstants(),
    preactInTheBrowser(),
    precompressedAssets(),
    tailwindcss(),
    reactRouter(),
  ],
  build: { assetsInlineLimit: 0 },
  server: { hmr: { port: 24678 } },
});
