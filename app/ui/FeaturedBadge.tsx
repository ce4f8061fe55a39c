/** The "Featured" mark of a paid listing (networks and traffic sources). */
export function FeaturedBadge() {
  return (
    <span className="rounded bg-brand-600 px-1.5 py-0.5 text-[10px] font-semibold uppercase tracking-wide text-white">
      Featured
    </span>
  );
}
