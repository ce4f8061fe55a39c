// What an old link to a retired network, offer or traffic source shows (answered
// with 410 Gone): it was listed, is no longer, and where to look instead.
import { Link } from "#app/ui/Link.tsx";

export function NoLongerListed({
  name,
  kind,
  to,
}: {
  name: string;
  kind: string;
  to: { href: string; label: string };
}) {
  return (
    <section className="mx-auto max-w-xl py-16 text-center" data-testid="no-longer-listed">
      <p className="text-6xl font-black text-slate-500">410</p>
      <h1 className="mt-4 text-xl font-semibold text-slate-800">{name} is no longer listed</h1>
      <p className="mt-2 text-slate-600">
        This {kind} was removed from the directory. Its page stays here so old links explain what happened.
      </p>
      <Link to={to.href} className="btn-primary mt-6 inline-block">
        {to.label}
      </Link>
    </section>
  );
}
