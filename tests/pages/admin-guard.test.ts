// Every console page guards itself on the server: 401 without a session, 403
// for a signed-in user without the role, for the page, its data request
// (`.data`, what client navigation fetches) and its form posts alike. The pages
// are read from the build's route table, so a page added later is covered too.
import path from "node:path";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_DIR } from "#server/app.ts";
import { AUTH_COOKIE } from "#core/auth/sessions.ts";
import { FORBIDDEN } from "#contracts/roles.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRoles } from "../helpers/staff.ts";

let t: TestApp;
let consolePaths: { path: string; hasAction: boolean; moderator: boolean }[];

/** A route's full URL path, its parents' segments first; `:id`-style segments become 1. */
function fullPath(routes: ServerBuild["routes"], id: string): string {
  const route = routes[id]!;
  const own = route.path ?? "";
  const parent = route.parentId ? fullPath(routes, route.parentId) : "";
  return [parent, own]
    .filter(Boolean)
    .join("/")
    .replace(/:[a-zA-Z]+\??/g, "1");
}

/** Pages a moderator opens (the queues); every other console page is for admins only. */
const MODERATOR_PAGES = /^\/admin\/(submissions|reviews|inbox)(\/|$)/;

beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 3, offers: 10, trafficSources: 1 } });
  const build = (await import(path.join(BUILD_DIR, "server", "index.js"))) as ServerBuild;
  consolePaths = Object.entries(build.routes)
    .filter(([id, route]) => id.startsWith("routes/admin/") && id !== "routes/admin/layout" && route)
    .map(([id, route]) => {
      const p = `/${fullPath(build.routes, id)}`;
      return { path: p, hasAction: Boolean(route!.module.action), moderator: MODERATOR_PAGES.test(p) };
    });
});
afterAll(() => t?.close());

const cookieOf = (account: { headers: { authorization: string } }) =>
  `${AUTH_COOKIE}=${account.headers.authorization.replace("Bearer ", "")}`;

describe("console pages", () => {
  it("are found in the build (the queues at least)", () => {
    expect(consolePaths.map((p) => p.path)).toEqual(
      expect.arrayContaining([
        "/admin",
        "/admin/submissions",
        "/admin/submissions/1",
        "/admin/reviews",
        "/admin/inbox",
      ]),
    );
  });

  it("answer 401 without a session and 403 to a plain user, page, data and post", async () => {
    const plain = cookieOf(await signInWithRoles(t, []));
    for (const { path: page, hasAction } of consolePaths) {
      const requests = [
        { method: "GET" as const, url: page },
        { method: "GET" as const, url: `${page}.data` },
        ...(hasAction
          ? [
              {
                method: "POST" as const,
                url: page,
                headers: { "content-type": "application/x-www-form-urlencoded" },
                payload: "intent=approve",
              },
            ]
          : []),
      ];
      for (const request of requests) {
        const anonymous = await t.app.inject(request);
        expect(anonymous.statusCode, `${request.method} ${request.url}`).toBe(401);
        const refused = await t.app.inject({ ...request, headers: { ...request.headers, cookie: plain } });
        expect(refused.statusCode, `${request.method} ${request.url}`).toBe(403);
        if (request.url === page && request.method === "GET") expect(refused.body).toContain(FORBIDDEN);
      }
    }
  });

  it("open the queues to a moderator and keep the admin pages from them", async () => {
    const moderator = cookieOf(await signInWithRoles(t, ["moderator"]));
    for (const { path: page, moderator: allowed } of consolePaths) {
      const res = await t.app.inject({ url: page, headers: { cookie: moderator } });
      if (allowed) expect([200, 404], page).toContain(res.statusCode);
      else expect([302, 403], page).toContain(res.statusCode);
    }
    const queue = await t.app.inject({ url: "/admin/submissions", headers: { cookie: moderator } });
    expect(queue.statusCode).toBe(200);
    expect(queue.body).toContain("Network submissions");
  });

  it("answer 404, never 500, for a record that is not there", async () => {
    const admin = cookieOf(await signInWithRoles(t, ["admin"]));
    const withId = consolePaths.filter((p) => /\/1(\/|$)/.test(p.path));
    expect(withId.length).toBeGreaterThan(3);
    for (const { path: page } of withId) {
      for (const id of ["999999999", "abc"]) {
        const res = await t.app.inject({ url: page.replace(/\/1(?=\/|$)/, `/${id}`), headers: { cookie: admin } });
        expect(res.statusCode, `${page} as ${id}`).toBe(404);
      }
    }
  });
});
