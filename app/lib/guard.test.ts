import { describe, expect, it } from "vitest";
import { guestOnly, hasScope, loginPath, requireScope, requireUserOrRedirect, safeRedirectPath } from "./guard.ts";
import type { SessionUser } from "#contracts/auth.ts";

const user: SessionUser = { id: 1, email: "a@b.co", name: "A", phone: null, company: null, messenger: null, scope: ["admin"], createdAt: "2026-01-01T00:00:00.000Z" };

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

  it("refuses anything that could leave the site", () => {
    for (const bad of ["//evil.com", "https://evil.com/x", "/\\evil.com", "\\\\evil.com", "http:/evil.com", "javascript:alert(1)", "evil.com", " //evil.com", "/\t/evil.com", "", null, undefined, 42]) {
      expect(safeRedirectPath(bad), String(bad)).toBe("/");
    }
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

  it("sends a logged-in user away from guest-only pages", () => {
    expect(thrown(() => guestOnly(user)).headers.get("location")).toBe("/");
    expect(guestOnly(null)).toBeUndefined();
  });

  it("checks scopes", () => {
    expect(hasScope(user, "admin")).toBe(true);
    expect(hasScope({ scope: [] }, "admin")).toBe(false);
    expect(hasScope(null, "admin")).toBe(false);
    expect(thrown(() => requireScope(new Request("http://x/admin"), { ...user, scope: [] }, "admin")).status).toBe(403);
  });
});
