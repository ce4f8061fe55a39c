// /account: the logged-in user's profile. Protected: a visitor is sent to
// /login?redirectTo=/account and comes back here after logging in.
import { useLoaderData } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { requireUserOrRedirect } from "#app/lib/guard.server.ts";
import { requestContext } from "#app/context.ts";
import type { Route } from "./+types/account";
import { unlistedPageMeta } from "#app/lib/seo.ts";

export const meta: Route.MetaFunction = (args) =>
  unlistedPageMeta(args, {
    title: "Your account",
    description: "Your profile, watchlist, saved searches and API keys.",
  });

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUserOrRedirect(request, context.get(requestContext).user);
  return {
    name: user.name,
    email: user.email,
    phone: user.phone,
    company: user.company,
    messenger: user.messenger,
    createdAt: user.createdAt,
  };
}

const memberSince = (iso: string) =>
  new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

export default function AccountPage() {
  const user = useLoaderData<typeof loader>();
  const rows: [string, string | null][] = [
    ["Name", user.name],
    ["Email", user.email],
    ["Phone", user.phone],
    ["Company", user.company],
    ["Skype / Telegram", user.messenger],
    ["Member since", memberSince(user.createdAt)],
  ];
  return (
    <section className="mx-auto max-w-xl">
      <h1 className="text-2xl font-semibold">Your account</h1>
      <dl className="card mt-4 grid grid-cols-[7.5rem_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm sm:grid-cols-[10rem_minmax(0,1fr)]">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-slate-600">{label}</dt>
            <dd data-field={label} className="wrap-anywhere">
              {value || <span className="text-slate-500">Not given</span>}
            </dd>
          </div>
        ))}
      </dl>
      <p className="mt-4 text-sm">
        <Link to="/account/watchlist" className="link">
          Watchlist
        </Link>
        : the offers and networks you follow, and what changed since your last visit.
      </p>
      <p className="mt-4 text-sm">
        <Link to="/account/searches" className="link">
          Saved searches and alerts
        </Link>
        : your saved offer searches, and the e-mails that tell you what changed in them.
      </p>
      <p className="mt-4 text-sm">
        <Link to="/account/api-keys" className="link">
          API keys
        </Link>{" "}
        for reading offers and networks from your own scripts.
      </p>
    </section>
  );
}
