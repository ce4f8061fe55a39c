// The operator's console (/admin): its own layout, no ads, a menu of the pages
// the signed-in role may open. The menu is a convenience only: every page's
// loader and action checks its role on the server (staff.server.ts).
import { NavLink, Outlet, useLoaderData } from "react-router";
import { hasRole, type Role } from "#contracts/roles.ts";
import { requireStaff } from "./staff.server";
import type { Route } from "./+types/layout";
import { unlistedPageMeta } from "#app/lib/seo.ts";

/** The console's pages, in menu order, with the role each needs. */
const NAV: readonly { to: string; label: string; role: Role }[] = [
  { to: "/admin", label: "Dashboard", role: "admin" },
  { to: "/admin/submissions", label: "Submissions", role: "moderator" },
  { to: "/admin/reviews", label: "Reviews", role: "moderator" },
  { to: "/admin/inbox", label: "Inbox", role: "moderator" },
  { to: "/admin/ads", label: "House ads", role: "admin" },
  { to: "/admin/offers", label: "Offers", role: "admin" },
  { to: "/admin/networks", label: "Networks", role: "admin" },
  { to: "/admin/traffic-sources", label: "Traffic sources", role: "admin" },
  { to: "/admin/verticals", label: "Verticals", role: "admin" },
  { to: "/admin/sources", label: "Offer sources", role: "admin" },
  { to: "/admin/categories", label: "Platform categories", role: "admin" },
  { to: "/admin/users", label: "Users", role: "admin" },
  { to: "/admin/audit", label: "Audit log", role: "admin" },
  { to: "/admin/tags", label: "Tags", role: "admin" },
];

export const meta: Route.MetaFunction = (args) =>
  unlistedPageMeta(args, {
    title: "Console",
    description: "The operator console, for staff only.",
    robots: "noindex, nofollow",
  });

export async function loader(args: Route.LoaderArgs) {
  const { user } = requireStaff(args, "moderator");
  return { scope: user.scope, email: user.email };
}

export default function ConsoleLayout() {
  const { scope, email } = useLoaderData<typeof loader>();
  const pages = NAV.filter((page) => hasRole({ scope }, page.role));
  return (
    <div className="container-oa py-6 md:grid md:grid-cols-[12rem_1fr] md:gap-6">
      <nav aria-label="Console" className="mb-4 md:mb-0">
        <p className="mb-2 break-all text-xs uppercase tracking-wide text-slate-500">Console · {email}</p>
        <ul className="flex flex-wrap gap-1 md:flex-col">
          {pages.map((page) => (
            <li key={page.to}>
              <NavLink
                to={page.to}
                end={page.to === "/admin"}
                className={({ isActive }) =>
                  `block rounded px-3 py-1.5 text-sm ${isActive ? "bg-brand-600 text-white" : "hover:bg-slate-100"}`
                }
              >
                {page.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="min-w-0">
        <Outlet />
      </div>
    </div>
  );
}
