// Route guard (docs/product.md §4): protected pages send a logged-out visitor to /login,
// remembering the wanted path; guest-only pages (login, register) send a
// logged-in user home. Pages without a guard call are public (the opt-out).
import { redirect } from "react-router";
import type { SessionUser } from "#contracts/auth.ts";
import type { RequestContext } from "#app/context.ts";

const BASE = "http://offeratlas.invalid";

const hasControlChars = (v: string) => [...v].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

// A path on this site: one leading "/", never "//" (protocol-relative), never "\\"
// (browsers read it as "/"), no control characters (never legitimate, and some are dropped by parsers).
const isLocalPath = (v: string) => v.startsWith("/") && !v.startsWith("//") && !v.includes("\\") && !hasControlChars(v);

/**
 * The one decision on where a redirect may go: only a path on this site is ever
 * followed; `//evil.com`, `https://…`, `/\evil`, `/.//evil` fall back to "/".
 */
export function safeRedirectPath(to: unknown, fallback = "/"): string {
  if (typeof to !== "string") return fallback;
  const v = to.trim();
  if (!isLocalPath(v)) return fallback;
  try {
    const url = new URL(v, BASE);
    if (url.origin !== BASE) return fallback;
    const path = url.pathname + url.search + url.hash;
    // Normalising dot segments can turn a local path protocol-relative ("/.//evil" → "//evil"): judge the result too.
    return isLocalPath(path) ? path : fallback;
  } catch {
    return fallback;
  }
}

/** /login with the page to come back to, e.g. `/login?redirectTo=/account`. */
export function loginPath(wanted: string): string {
  const path = safeRedirectPath(wanted);
  return path === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(path).replace(/%2F/g, "/")}`;
}

/**
 * The page a request is for. A client-side navigation fetches the page's data from
 * `/account.data?_routes=…` (`/_root.data` for `/`); the page to come back to is `/account`.
 */
export function pagePathOf(request: Request): string {
  const url = new URL(request.url);
  const path =
    url.pathname === "/_root.data" ? "/" : url.pathname.endsWith(".data") ? url.pathname.slice(0, -5) : url.pathname;
  url.searchParams.delete("_routes");
  const search = url.searchParams.toString();
  return search ? `${path}?${search}` : path;
}

/** For protected loaders/actions: the user, or a redirect to /login remembering this page. */
export function requireUserOrRedirect(request: Request, user: SessionUser | null): SessionUser {
  if (user) return user;
  throw redirect(loginPath(pagePathOf(request)));
}

/** For guest-only pages (/login, /register): a logged-in user goes to /. */
export function guestOnly(signedIn: boolean): void {
  if (signedIn) throw redirect("/");
}

/**
 * For a page whose personal parts the shared signed-in render cannot leave out: its
 * user, or, in that render, an answer the server never shares, so it renders the
 * page again with the user (docs/decisions/0029).
 */
export function personalUser(c: RequestContext): SessionUser | null {
  if (c.shared) throw new Response("Rendered per user", { status: 409 });
  return c.user;
}

/** The spec's scope check: true when the profile has every scope named. */
export function hasScope(user: Pick<SessionUser, "scope"> | null | undefined, ...scopes: string[]): boolean {
  return Boolean(user) && scopes.every((s) => user!.scope.includes(s));
}

/** For admin pages: log in first, then 403 without the scope. */
export function requireScope(request: Request, user: SessionUser | null, ...scopes: string[]): SessionUser {
  const u = requireUserOrRedirect(request, user);
  if (!hasScope(u, ...scopes)) throw new Response("Forbidden", { status: 403, statusText: "Forbidden" });
  return u;
}
