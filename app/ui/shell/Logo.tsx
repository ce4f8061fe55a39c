import { Link } from "#app/ui/Link.tsx";
import { HOME_RESET } from "./links";

/** The logo resets the offers search (tab, page, text and filters) and scrolls to the top. */
export function Logo({ className = "", accent = "text-brand-600" }: { className?: string; accent?: string }) {
  return (
    <Link
      to={HOME_RESET}
      aria-label="OfferAtlas home"
      className={`inline-flex items-center gap-2 font-bold tracking-tight ${className}`}
      onClick={() => window.scrollTo({ top: 0 })}
    >
      <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true">
        <circle cx="16" cy="16" r="14" fill="currentColor" opacity="0.15" />
        <path
          d="M16 4a12 12 0 1 0 0 24a12 12 0 1 0 0-24zm0 3c2 2.5 3 5.5 3 9s-1 6.5-3 9c-2-2.5-3-5.5-3-9s1-6.5 3-9zM5.5 14h21M5.5 18h21"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.6"
        />
      </svg>
      <span className="text-lg">
        Offer<span className={accent}>Atlas</span>
      </span>
    </Link>
  );
}
