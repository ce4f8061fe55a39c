// The JavaScript each public page loads before it is interactive, read from the
// React Router build manifest (the server build's `assets`): the client entry and,
// for every route from the root down to the page, its module and static imports,
// each gzipped as the server sends it. Lazy imports load later and are not counted.
// The budget is issue #15's 100 kB; the browser build renders with Preact's React
// compatibility layer to meet it (docs/decisions/0024, 0033 and 0035).
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import type { ServerBuild } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { BUILD_DIR } from "#server/app.ts";

/** Gzipped kilobytes (1,000 bytes, as the build prints them) one page may load. */
const JS_BUDGET_KB = 100;

/** What this test reads of the manifest (React Router writes `hasDefaultExport` without typing it). */
type RouteAssets = { id: string; parentId?: string; module: string; imports?: string[]; hasDefaultExport?: boolean };
type Assets = { entry: { module: string; imports: string[] }; routes: Record<string, RouteAssets | undefined> };

const gzipped = new Map<string, number>();
function gzippedBytes(asset: string): number {
  let size = gzipped.get(asset);
  if (size === undefined) {
    size = zlib.gzipSync(fs.readFileSync(path.join(BUILD_DIR, "client", asset))).length;
    gzipped.set(asset, size);
  }
  return size;
}

/** Every module a page of `leaf` loads at start, once each. */
function pageModules(assets: Assets, leaf: RouteAssets): Set<string> {
  const modules = new Set([assets.entry.module, ...assets.entry.imports]);
  const chain: RouteAssets[] = [];
  for (
    let route: RouteAssets | undefined = leaf;
    route;
    route = route.parentId ? assets.routes[route.parentId] : undefined
  )
    chain.unshift(route);
  for (const route of chain) for (const module of [route.module, ...(route.imports ?? [])]) modules.add(module);
  return modules;
}

/** Pages anyone may open: leaf routes that render (not layouts, resource routes or the console). */
function publicPages(assets: Assets): RouteAssets[] {
  const routes = Object.values(assets.routes).filter((r) => r !== undefined);
  const parents = new Set(routes.map((r) => r.parentId));
  return routes.filter((r) => r.hasDefaultExport && !parents.has(r.id) && !r.id.startsWith("routes/admin/"));
}

let assets: Assets;
let pages: RouteAssets[];
beforeAll(async () => {
  const build = (await import(path.join(BUILD_DIR, "server", "index.js"))) as ServerBuild;
  assets = build.assets;
  pages = publicPages(assets);
  // The manifest is read as expected: each kind of page is found.
  expect(pages.map((p) => p.id)).toEqual(
    expect.arrayContaining([
      "routes/offers/home",
      "routes/offers/offer",
      "routes/networks/network",
      "routes/leads/contact",
      "routes/account/register",
      "routes/content/faq",
    ]),
  );
});

describe("JavaScript budget", () => {
  it(`every public page loads at most ${JS_BUDGET_KB} kB of gzipped JavaScript`, () => {
    const sizes = pages
      .map((page) => {
        const modules = [...pageModules(assets, page)];
        const bytes = modules.reduce((sum, m) => sum + gzippedBytes(m), 0);
        return { page: page.id, kB: Math.round(bytes / 100) / 10, modules: modules.length };
      })
      .sort((a, b) => b.kB - a.kB);
    console.log(sizes.map((s) => `${s.kB.toFixed(1).padStart(6)} kB  ${s.modules} modules  ${s.page}`).join("\n"));
    expect(sizes.filter((s) => s.kB > JS_BUDGET_KB)).toEqual([]);
  });

  // Over HTTP/1.1 each six requests cost a page another round trip: what every page loads
  // (the client entry, the root route and all they import) comes as three files (docs/decisions/0038).
  it("loads what every page shares as three files: the client entry, the root route and the shell", () => {
    const [first, ...rest] = pages.map((page) => pageModules(assets, page));
    const shared = [...first].filter((m) => rest.every((modules) => modules.has(m)));
    expect(shared).toHaveLength(3);
    expect(shared).toEqual(
      expect.arrayContaining([assets.entry.module, assets.routes.root!.module, expect.stringMatching(/\/shell-/)]),
    );
  });

  // The lead forms validate in the browser with zod, loaded once a visitor starts on a form (docs/decisions/0033).
  it("leaves zod out of what every public page loads at start", () => {
    for (const page of pages) {
      const withZod = [...pageModules(assets, page)].filter((m) =>
        fs.readFileSync(path.join(BUILD_DIR, "client", m), "utf8").includes("ZodError"),
      );
      expect(withZod, page.id).toEqual([]);
    }
  });
});
