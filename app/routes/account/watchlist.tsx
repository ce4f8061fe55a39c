// /account/watchlist (issue #14): the offers and networks the user follows, with the
// current payout and what changed since the last visit. Opening the page counts as
// the visit, so the next one shows only newer changes. Its action is also where
// every star's form posts when JavaScript is off (app/ui/WatchStar.tsx).
import type { ReactNode } from "react";
import { redirect, useFetcher, type ShouldRevalidateFunction } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { requestContext } from "#app/context.ts";
import { loginPath, requireUserOrRedirect, safeRedirectPath } from "#app/lib/guard.server.ts";
import { handleForm } from "#app/ui/form/form.server.ts";
import type { FormResult } from "#app/ui/form/form.ts";
import { Stars } from "#app/ui/Stars.tsx";
import { formatMoney, formatPayout } from "#contracts/money.ts";
import { offerUrl, type PayoutChange } from "#contracts/offers.ts";
import {
  WATCHLIST_MESSAGES,
  watchItemId,
  watchTarget,
  type StatusChange,
  type WatchedNetwork,
  type WatchedOffer,
} from "#contracts/watchlist.ts";
import { badRequest, notFound } from "#core/errors.ts";
import { dateText, payoutTypeLabel } from "#app/routes/offers/format.ts";
import type { Route } from "./+types/watchlist";
import { unlistedPageMeta } from "#app/lib/seo.ts";
import { formatNumber } from "#contracts/numbers.ts";

export const meta: Route.MetaFunction = (args) =>
  unlistedPageMeta(args, {
    title: "Your watchlist",
    description: "The offers you watch, with their payout changes since you starred them.",
  });

export async function loader({ request, context }: Route.LoaderArgs) {
  const { services, user } = context.get(requestContext);
  const me = requireUserOrRedirect(request, user);
  return services.watchlist.visit(me.id);
}

const WATCH_FORM = { fields: new Set(["intent", "offerId", "networkId", "itemId", "redirectTo"]) };

export async function action({ request, context }: Route.ActionArgs) {
  const { services, user } = context.get(requestContext);
  return handleForm(request, WATCH_FORM, async (values) => {
    const back = typeof values.redirectTo === "string" ? safeRedirectPath(values.redirectTo, "") : "";
    // A star posted after the session ended: log in, then come back to the page of the star.
    if (!user) throw redirect(loginPath(back || "/account/watchlist"));
    const watchlist = services.watchlist;
    if (values.intent === "follow") await watchlist.follow(user.id, watchTarget.parse(values));
    else if (values.intent === "unfollow" && values.itemId !== undefined) {
      const id = watchItemId(values.itemId);
      if (id === undefined) throw notFound(WATCHLIST_MESSAGES.itemNotFound);
      await watchlist.unfollow(user.id, id);
    } else if (values.intent === "unfollow") await watchlist.unfollowTarget(user.id, watchTarget.parse(values));
    else throw badRequest("Unknown action: send intent follow or unfollow");
    // A star's form goes back to its page; the list's own buttons stay here.
    if (back) throw redirect(back);
    return { ok: true, message: values.intent === "follow" ? "Followed" : "Unfollowed" } satisfies FormResult;
  });
}

// Unfollowing from the list hides the row in place: reloading the list would count as
// a new visit and wipe the changes still being read.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, defaultShouldRevalidate }) =>
  formAction === "/account/watchlist" ? false : defaultShouldRevalidate;

const USD = { code: "USD", symbol: "$", decimalDigits: 2, rounding: 0 };

/** "Payout up $5.00 on Nov 20, 2026". */
function payoutChangeText(change: PayoutChange): string {
  const amount = change.usd !== null ? formatMoney(change.usd, USD) : `${Number((change.percent ?? 0).toFixed(2))}%`;
  return `Payout ${change.direction} ${amount} on ${dateText(change.at)}`;
}

const STATUS_LABELS: Record<string, string> = {
  active: "Active",
  paused: "Paused",
  expired: "Expired",
  retired: "Retired",
  pending: "Pending",
  inactive: "Inactive",
};
const statusLabel = (s: string) => STATUS_LABELS[s] ?? s;

function statusChangeText(change: StatusChange): string {
  const from = change.from ? `from ${statusLabel(change.from)} ` : "";
  return `Status changed ${from}to ${statusLabel(change.to)} on ${dateText(change.at)}`;
}

function StatusBadge({ status }: { status: string }) {
  if (status === "active") return <span className="text-green-700">Active</span>;
  return (
    <span
      className={`rounded px-1.5 py-0.5 text-xs font-semibold ${status === "retired" ? "bg-red-100 text-red-800" : "bg-slate-200 text-slate-800"}`}
      data-testid="status"
    >
      {statusLabel(status)}
      {status === "retired" && <span className="sr-only"> (no longer listed)</span>}
    </span>
  );
}

function Changes({ payout, status }: { payout?: PayoutChange | null; status: StatusChange | null }) {
  if (!payout && !status) return <span className="text-slate-500">No change</span>;
  return (
    <ul className="space-y-0.5" data-testid="changes">
      {payout && (
        <li className={payout.direction === "up" ? "text-green-800" : "text-red-800"} data-testid="payout-change">
          <span aria-hidden="true">{payout.direction === "up" ? "▲ " : "▼ "}</span>
          {payoutChangeText(payout)}
        </li>
      )}
      {status && <li data-testid="status-change">{statusChangeText(status)}</li>}
    </ul>
  );
}

type Unfollow = ReturnType<typeof useFetcher<FormResult>>;

function UnfollowButton({ fetcher, itemId, name }: { fetcher: Unfollow; itemId: number; name: string }) {
  return (
    <fetcher.Form method="post" action="/account/watchlist">
      <input type="hidden" name="intent" value="unfollow" />
      <input type="hidden" name="itemId" value={itemId} />
      <button type="submit" className="link text-sm" aria-label={`Unfollow ${name}`}>
        Unfollow
      </button>
      {fetcher.data && !fetcher.data.ok && (
        <span role="alert" className="block text-xs text-red-800">
          {fetcher.data.message}
        </span>
      )}
    </fetcher.Form>
  );
}

/** What stays of a row unfollowed in place, saying so to screen readers too. */
function UnfollowedRow({ name }: { name: string }) {
  return (
    <tr>
      <td colSpan={6} role="status" className="text-slate-600">
        You no longer follow {name}.
      </td>
    </tr>
  );
}

function OfferRow({ o }: { o: WatchedOffer }) {
  const unfollow = useFetcher<FormResult>();
  if (unfollow.data?.ok) return <UnfollowedRow name={o.name} />;
  const retired = o.status === "retired";
  return (
    <tr data-watch-item={o.id} data-offer-id={o.offerId}>
      <td>
        {retired ? (
          <span className="font-medium line-through decoration-slate-400">{o.name}</span>
        ) : (
          <Link to={offerUrl({ id: o.offerId, slug: o.slug })} className="link font-medium">
            {o.name}
          </Link>
        )}
      </td>
      <td>
        <Link to={`/network/${o.network.id}/${o.network.slug}`} className="text-slate-700 hover:underline">
          {o.network.name}
        </Link>
      </td>
      <td className="whitespace-nowrap font-semibold" data-testid="payout">
        {formatPayout(o)} <span className="text-xs font-normal text-slate-600">{payoutTypeLabel(o.payoutType)}</span>
      </td>
      <td>
        <StatusBadge status={o.status} />
      </td>
      <td className="text-sm">
        <Changes payout={o.payoutChange} status={o.statusChange} />
      </td>
      <td>
        <UnfollowButton fetcher={unfollow} itemId={o.id} name={o.name} />
      </td>
    </tr>
  );
}

function NetworkRow({ n }: { n: WatchedNetwork }) {
  const unfollow = useFetcher<FormResult>();
  if (unfollow.data?.ok) return <UnfollowedRow name={n.name} />;
  const retired = n.status === "retired";
  return (
    <tr data-watch-item={n.id} data-network-id={n.networkId}>
      <td>
        {retired ? (
          <span className="font-medium line-through decoration-slate-400">{n.name}</span>
        ) : (
          <Link to={`/network/${n.networkId}/${n.slug}`} className="link font-medium">
            {n.name}
          </Link>
        )}
      </td>
      <td>
        <Stars rating={n.rating} label={`Rated ${n.rating.toFixed(1)} of 5 from ${n.reviewCount} reviews`} />
      </td>
      <td>{formatNumber(n.offerCount)}</td>
      <td>
        <StatusBadge status={n.status} />
      </td>
      <td className="text-sm">
        <Changes status={n.statusChange} />
      </td>
      <td>
        <UnfollowButton fetcher={unfollow} itemId={n.id} name={n.name} />
      </td>
    </tr>
  );
}

export default function WatchlistPage({ loaderData, actionData }: Route.ComponentProps) {
  const { offers, networks } = loaderData;
  return (
    <section className="mx-auto max-w-5xl" aria-labelledby="watchlist-title">
      <h1 id="watchlist-title" className="text-2xl font-semibold">
        Your watchlist
      </h1>
      <p className="mt-1 text-sm text-slate-600">
        Follow offers and networks with the star on their pages and in the search results. Changes are those since your
        last visit to this page.
      </p>
      {actionData && !actionData.ok && (
        <p role="alert" className="mt-3 rounded bg-red-50 p-2 text-sm text-red-800">
          {actionData.message}
        </p>
      )}
      <WatchTable
        title="Offers"
        empty="You do not follow any offers yet."
        columns={["Offer", "Network", "Payout", "Status", "Changed since your last visit", "Unfollow"]}
        rows={offers.map((o) => ({ id: o.id, row: <OfferRow key={o.id} o={o} /> }))}
      />
      <WatchTable
        title="Networks"
        empty="You do not follow any networks yet."
        columns={["Network", "Rating", "Offers", "Status", "Changed since your last visit", "Unfollow"]}
        rows={networks.map((n) => ({ id: n.id, row: <NetworkRow key={n.id} n={n} /> }))}
      />
    </section>
  );
}

function WatchTable({
  title,
  empty,
  columns,
  rows,
}: {
  title: string;
  empty: string;
  columns: string[];
  rows: { id: number; row: ReactNode }[];
}) {
  return (
    <section className="card mt-4" aria-label={`Followed ${title.toLowerCase()}`}>
      <h2 className="text-lg font-semibold">{title}</h2>
      {rows.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{empty}</p>
      ) : (
        <table className="mt-2 w-full text-left text-sm" data-testid={`watchlist-${title.toLowerCase()}`}>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c} scope="col" className={c === "Unfollow" ? "sr-only" : undefined}>
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>{rows.map((r) => r.row)}</tbody>
        </table>
      )}
    </section>
  );
}
