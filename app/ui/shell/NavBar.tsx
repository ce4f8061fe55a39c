// Navigation bar (docs/product.md §2): internal links, external resources, and for
// visitors the login dropdown that opens on hover or from its button.
import { useEffect, useId, useRef, useState } from "react";
import { Form, NavLink, useLocation } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { ANTIBOT_ACTIONS } from "#contracts/antibot.ts";
import { AntibotForm } from "#app/ui/antibot/AntibotForm.tsx";
import type { SiteLinks } from "#contracts/site.ts";
import { NAV_LINKS } from "./links";
import { Logo } from "./Logo";

export type NavUser = { name: string; email: string; scope?: string[] } | null;

/** The account link's text until the shared signed-in page learns the user's name. */
const ACCOUNT_LABEL = "Account";

const external = (links: SiteLinks) =>
  [
    { href: links.trainingVideosUrl, label: "Free Training" },
    { href: links.callTrackingUrl, label: "Call Tracking" },
    { href: links.facebookUrl, label: "Facebook" },
    { href: links.twitterUrl, label: "Twitter" },
  ].filter((l): l is { href: string; label: string } => Boolean(l.href));

/** `signedIn` with no `user`: the shared signed-in page, before its personal parts came. */
export function NavBar({ user, signedIn, links }: { user: NavUser; signedIn: boolean; links: SiteLinks }) {
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur">
      <nav aria-label="Main" className="container-oa flex h-14 items-center gap-4">
        <Logo className="text-slate-900" />
        <button
          type="button"
          className="ml-auto rounded p-2 md:hidden"
          aria-expanded={menuOpen}
          aria-controls="main-menu"
          onClick={() => setMenuOpen((o) => !o)}
        >
          <span className="sr-only">Menu</span>
          <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true">
            <path d="M3 5h14M3 10h14M3 15h14" stroke="currentColor" strokeWidth="2" />
          </svg>
        </button>
        <div
          id="main-menu"
          className={`${menuOpen ? "flex" : "hidden"} absolute inset-x-0 top-14 flex-col gap-1 border-b border-slate-200 bg-white p-3 md:static md:ml-auto md:flex md:flex-row md:items-center md:gap-1 md:border-0 md:p-0`}
        >
          {NAV_LINKS.filter((l) => !("guestOnly" in l) || !signedIn).map((l) =>
            l.to === "/login" ? (
              <LoginDropdown key={l.to} recoveryUrl={links.passwordRecoveryUrl} />
            ) : (
              <NavLink
                key={l.to}
                to={l.to}
                className={({ isActive }) => `nav-link ${isActive ? "nav-link-active" : ""}`}
              >
                {l.label}
              </NavLink>
            ),
          )}
          <details className="relative">
            <summary className="nav-link cursor-pointer list-none">
              {/* The space is in the hidden part too: the name is "Resources", nothing after it. */}
              Resources<span aria-hidden="true"> ▾</span>
            </summary>
            <ul className="absolute right-0 z-40 mt-1 w-48 rounded-md border border-slate-200 bg-white py-1 shadow-lg">
              {links.passwordRecoveryUrl && (
                <li>
                  <a
                    className="block px-3 py-1.5 text-sm hover:bg-slate-50"
                    href={links.passwordRecoveryUrl}
                    rel="noopener"
                    target="_blank"
                  >
                    Password recovery (Dashboard)
                  </a>
                </li>
              )}
              {external(links).map((l) => (
                <li key={l.label}>
                  <a
                    className="block px-3 py-1.5 text-sm hover:bg-slate-50"
                    href={l.href}
                    rel="noopener"
                    target="_blank"
                  >
                    {l.label}
                  </a>
                </li>
              ))}
            </ul>
          </details>
          {signedIn && (
            <>
              <NavLink
                to="/account"
                className={({ isActive }) => `nav-link ${isActive ? "nav-link-active" : ""}`}
                title={user?.email}
                data-testid="account-link"
              >
                {user?.name ?? ACCOUNT_LABEL}
              </NavLink>
              <Form method="post" action="/logout" className="inline">
                <button type="submit" className="nav-link">
                  Logout
                </button>
              </Form>
            </>
          )}
        </div>
      </nav>
    </header>
  );
}

/**
 * Opens on hover (docs/product.md §2) and, as a disclosure button beside the Login link,
 * on click, Enter or Space; keyboard users pass it in one stop unless they open it.
 * Closes on Escape (back to its button), a click outside, or focus leaving it.
 */
function LoginDropdown({ recoveryUrl }: { recoveryUrl?: string }) {
  const [hovered, setHovered] = useState(false);
  const [pinned, setPinned] = useState(false);
  const open = hovered || pinned;
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const id = useId();
  const close = () => {
    setHovered(false);
    setPinned(false);
  };
  // A pointer already resting on it when the page started has had its mouseenter, unheard.
  useEffect(() => {
    if (root.current?.matches(":hover")) setHovered(true);
  }, []);
  useEffect(() => {
    if (!pinned) return;
    const onPointer = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) close();
    };
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
  }, [pinned]);
  // On /login?redirectTo=… the dropdown keeps the remembered page too.
  const redirectTo = new URLSearchParams(useLocation().search).get("redirectTo");
  return (
    <div
      ref={root}
      className="relative flex items-center"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      // Focus going nowhere (a click on the panel's padding) keeps it open.
      onBlur={(e) => {
        const next = e.relatedTarget as Node | null;
        if (next && !e.currentTarget.contains(next)) close();
      }}
      onKeyDown={(e) => {
        if (e.key === "Escape" && open) {
          close();
          button.current?.focus();
        }
      }}
    >
      <NavLink to="/login" className={({ isActive }) => `nav-link ${isActive ? "nav-link-active" : ""}`}>
        Login
      </NavLink>
      {/* A hover-opened panel stays open once clicked; a second click closes it. */}
      <button
        ref={button}
        type="button"
        className="nav-link min-w-6 px-1 text-center"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => (pinned ? close() : setPinned(true))}
      >
        <span className="sr-only">Login form</span>
        <span aria-hidden="true">▾</span>
      </button>
      <div
        id={id}
        data-testid="login-dropdown"
        hidden={!open}
        className="absolute top-full left-0 z-40 w-72 rounded-md border border-slate-200 bg-white p-4 shadow-xl md:right-0 md:left-auto"
      >
        <AntibotForm action="/login" antibotAction={ANTIBOT_ACTIONS.login} className="space-y-2">
          {redirectTo && <input type="hidden" name="redirectTo" value={redirectTo} />}
          <label className="block text-sm">
            <span className="text-slate-700">Email</span>
            <input type="email" name="email" autoComplete="email" required className="input mt-1" />
          </label>
          <label className="block text-sm">
            <span className="text-slate-700">Password</span>
            <input type="password" name="password" autoComplete="current-password" required className="input mt-1" />
          </label>
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" name="remember" value="true" /> Remember Me
          </label>
          <button type="submit" className="btn-primary w-full">
            Log In
          </button>
        </AntibotForm>
        <div className="mt-3 flex justify-between text-xs">
          <Link to="/forgot-password" className="link">
            Password recovery
          </Link>
          <Link to="/register" className="link">
            Not registered yet
          </Link>
        </div>
        {recoveryUrl && <span className="sr-only">Dashboard password recovery: {recoveryUrl}</span>}
      </div>
    </div>
  );
}
