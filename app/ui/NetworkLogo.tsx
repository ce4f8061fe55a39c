/** The network's logo, or its initials on a tinted square when it has none. */
export function NetworkLogo({ name, logoUrl, size = 40 }: { name: string; logoUrl: string | null; size?: number }) {
  if (logoUrl)
    return <img src={logoUrl} alt="" width={size} height={size} loading="lazy" className="rounded object-contain" />;
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase())
    .join("");
  return (
    <span
      aria-hidden="true"
      style={{ width: size, height: size }}
      className="inline-flex shrink-0 items-center justify-center rounded bg-brand-100 text-sm font-semibold text-brand-700"
    >
      {initials}
    </span>
  );
}
