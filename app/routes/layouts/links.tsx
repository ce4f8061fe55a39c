// Layout: links — content pages with a short index of the site's reference pages.
import { NavLink, Outlet } from "react-router";

const PAGES = [
  { to: "/faq", label: "FAQ" },
  { to: "/links", label: "All links" },
  { to: "/privacy", label: "Privacy" },
  { to: "/terms", label: "Terms" },
  { to: "/contact", label: "Help" },
];

export default function LinksLayout() {
  return (
    <div className="container-oa grid gap-6 py-6 md:grid-cols-[180px_minmax(0,1fr)]">
      <nav aria-label="Site pages">
        <ul className="flex flex-wrap gap-2 md:flex-col md:gap-1">
          {PAGES.map((p) => (
            <li key={p.to}>
              <NavLink
                to={p.to}
                className={({ isActive }) =>
                  `block rounded px-2 py-1 text-sm ${isActive ? "bg-brand-50 font-semibold text-brand-700" : "text-slate-700 hover:bg-slate-100"}`
                }
              >
                {p.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <article className="card min-w-0">
        <Outlet />
      </article>
    </div>
  );
}
