import { Link } from "#app/ui/Link.tsx";
import type { SiteLinks } from "#contracts/site.ts";
import { FOOTER_LINKS } from "./links";
import { Logo } from "./Logo";
import { CookieSettingsLink } from "#app/ui/consent/Consent.tsx";

export function Footer({ links }: { links: SiteLinks }) {
  const external = [
    { href: links.advertiserLoginUrl, label: "Advertiser Login" },
    { href: links.blogUrl, label: "Blog" },
    { href: links.callTrackingUrl, label: "Call Tracking" },
    { href: links.facebookUrl, label: "Facebook" },
    { href: links.youtubeUrl, label: "YouTube" },
  ].filter((l): l is { href: string; label: string } => Boolean(l.href));
  return (
    <footer className="mt-10 border-t border-slate-200 bg-slate-900 text-slate-300">
      <div className="container-oa grid gap-8 py-10 md:grid-cols-3">
        <div>
          <Logo className="text-white" accent="text-brand-300" />
          <p className="mt-3 text-sm leading-relaxed">
            Founded in 2009 by affiliate marketers, OfferAtlas helps affiliates find offers, connect with networks and
            check their reputation.
          </p>
        </div>
        <nav aria-label="Footer">
          <h2 className="mb-2 text-sm font-semibold uppercase tracking-wide text-white">Directory</h2>
          <ul className="grid grid-cols-2 gap-1 text-sm">
            {FOOTER_LINKS.map((l) => (
              <li key={l.to}>
                {"newTab" in l && l.newTab ? (
                  <a href={l.to} target="_blank" rel="noopener" className="hover:text-white">
                    {l.label}
                  </a>
                ) : (
                  <Link to={l.to} className="hover:text-white">
                    {l.label}
                  </Link>
                )}
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <h2 className="mb-2 text-sm font-semibold uppercase tracking-wide text-white">Elsewhere</h2>
          <ul className="space-y-1 text-sm">
            {external.map((l) => (
              <li key={l.label}>
                <a href={l.href} target="_blank" rel="noopener" className="hover:text-white">
                  {l.label}
                </a>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div className="border-t border-slate-800 py-4 text-center text-xs text-slate-400">
        © 2009–{new Date().getUTCFullYear()} OfferAtlas
        <CookieSettingsLink className="ml-3 underline hover:text-white" />
      </div>
    </footer>
  );
}
