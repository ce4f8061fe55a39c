import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  guestOnly,
  hasScope,
  loginPath,
  requireScope,
  requireUserOrRedirect,
  safeRedirectPath,
} from "./guard.server.ts";
import type { SessionUser } from "#contracts/auth.ts";

const user: SessionUser = {
  id: 1,
  email: "a@b.co",
  name: "A",
  phone: null,
  company: null,
  messenger: null,
  scope: ["admin"],
  createdAt: "2026-01-01T00:00:00.000Z",
};

const thrown = (fn: () => unknown): Response => {
  try {
    fn();
  } catch (r) {
    return r as Response;
  }
  throw new Error("did not throw");
};

describe("safeRedirectPath", () => {
  it("keeps local paths with their query and hash", () => {
    expect(safeRedirectPath("/account")).toBe("/account");
    expect(safeRedirectPath("/networks?search=abc&page=2#top")).toBe("/networks?search=abc&page=2#top");
  });

  // Each of these, sent as redirectTo, must never bring a browser to another host.
  const HOSTILE = [
    "//evil.example",
    "///evil.example",
    "////evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "\\/evil.example",
    "/.//evil.example",
    "/..//evil.example",
    "/./..//evil.example",
    "/a/..//evil.example",
    "/%2e//evil.example",
    "/%2e%2e//evil.example",
    "/.%2e//evil.example",
    "https://evil.example/x",
    "http:/evil.example",
    "http:evil.example",
    "HTTPS://evil.example",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "evil.example",
    "@evil.example",
    "/@evil.example/..//x",
    " //evil.example",
    "\t//evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n//evil.example",
    "/\u0000//evil.example",
    "/\u007f/evil.example",
    "//evil.example@offeratlas.test",
    "/\\@evil.example",
    "//%65vil.example",
    "/%5C%5Cevil.example",
    "/%2F%2Fevil.example",
    "//evil.example/%2F..",
    "/ /evil.example",
    "\u3000//evil.example",
    "",
  ];

  it.each(HOSTILE)("keeps %j on the site", (bad) => {
    const path = safeRedirectPath(bad);
    expect(path.startsWith("/") && !path.startsWith("//") && !path.includes("\\")).toBe(true);
    expect(new URL(path, "https://offeratlas.test").origin).toBe("https://offeratlas.test");
  });

  it("falls back home for the classic protocol-relative and scheme forms", () => {
    for (const bad of [
      "//evil.com",
      "https://evil.com/x",
      "/\\evil.com",
      "\\\\evil.com",
      "http:/evil.com",
      "javascript:alert(1)",
      "evil.com",
      " //evil.com",
      "/\t/evil.com",
      "/.//evil.example",
      "/..//evil.example",
      "",
      null,
      undefined,
      42,
    ]) {
      expect(safeRedirectPath(bad), String(bad)).toBe("/");
    }
  });

  it("never leaves the site, whatever string it is given", () => {
    const pieces = fc.constantFrom(
      "/",
      "//",
      "\\",
      ".",
      "..",
      "%2e",
      "%2f",
      "%5c",
      "@",
      ":",
      "?",
      "#",
      "evil.example",
      "http:",
      " ",
      "\t",
      "\u0000",
      "a",
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.array(pieces, { maxLength: 8 }).map((p) => p.join("")),
        ),
        (input) => {
          const path = safeRedirectPath(input);
          return (
            new URL(path, "https://offeratlas.test").origin === "https://offeratlas.test" && !path.startsWith("//")
          );
        },
      ),
      { numRuns: 2000, seed: 20261122 },
    );
  });
});

describe("guards", () => {
  it("sends a visitor to /login remembering the page", () => {
    const r = thrown(() => requireUserOrRedirect(new Request("http://x/account?tab=profile"), null));
    expect(r.status).toBe(302);
    expect(r.headers.get("location")).toBe("/login?redirectTo=/account%3Ftab%3Dprofile");
    expect(requireUserOrRedirect(new Request("http://x/account"), user)).toBe(user);
    expect(loginPath("/")).toBe("/login");
  });

  it("remembers the page, not the data request a client navigation makes for it", () => {
    const to = (url: string) => thrown(() => requireUserOrRedirect(new Request(url), null)).headers.get("location");
    expect(to("http://x/account.data?_routes=root%2Croutes%2Faccount%2Faccount")).toBe("/login?redirectTo=/account");
    expect(to("http://x/account/watchlist.data?tab=offers&_routes=x")).toBe(
      "/login?redirectTo=/account/watchlist%3Ftab%3Doffers",
    );
    expect(to("http://x/_root.data?_routes=root")).toBe("/login");
  });

  it("sends a logged-in user away from guest-only pages", () => {
    expect(thrown(() => guestOnly(true)).headers.get("location")).toBe("/");
    expect(guestOnly(false)).toBeUndefined();
  });

  it("checks scopes", () => {
    expect(hasScope(user, "admin")).toBe(true);
    expect(hasScope({ scope: [] }, "admin")).toBe(false);
    expect(hasScope(null, "admin")).toBe(false);
    expect(thrown(() => requireScope(new Request("http://x/admin"), { ...user, scope: [] }, "admin")).status).toBe(403);
  });
});
