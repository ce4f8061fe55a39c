// The watchlist star (issue #14): follow or unfollow an offer or a network. A real
// form posting to the watchlist page's action, which comes back here, so it works
// without JavaScript; with it, the same click calls the JSON API and stays on the
// page. Signed out, the star is a link to the login that returns to this page.
import { useState, type FormEvent } from "react";
import { useLocation } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import type { WatchState } from "#contracts/watchlist.ts";
import { usePersonal } from "#app/ui/shell/Personal.tsx";

export type WatchKind = "offer" | "network";

const FIELD = { offer: "offerId", network: "networkId" } as const;

/** The item id the page data gives this star (undefined: not followed). */
const followedItem = (
  state: Pick<WatchState, "offers" | "networks">,
  kind: WatchKind,
  id: number,
): number | undefined => (kind === "offer" ? state.offers : state.networks)[id];

function StarIcon({ filled }: { filled: boolean }) {
  return (
    <span aria-hidden="true" className={filled ? "text-amber-500" : "text-slate-400"}>
      {filled ? "★" : "☆"}
    </span>
  );
}

const STAR_CLASS =
  "inline-flex h-7 w-7 items-center justify-center rounded text-lg leading-none hover:bg-slate-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600";

export function WatchStar({
  kind,
  id,
  name,
  state,
}: {
  kind: WatchKind;
  id: number;
  /** The offer's or network's name, for the accessible name ("Follow Acme CPA"). */
  name: string;
  state: WatchState;
}) {
  const location = useLocation();
  const here = location.pathname + location.search;
  // In the shared signed-in page the user's own answer comes after the page (app/ui/shell/Personal.tsx).
  const personal = usePersonal();
  const fromPage = state.personal
    ? personal
      ? followedItem(personal.watch, kind, id)
      : undefined
    : followedItem(state, kind, id);
  const [itemId, setItemId] = useState(fromPage);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState("");
  // New page data (a navigation, a revalidation) is the truth again (adjusted while rendering, not in an effect).
  const [pageItem, setPageItem] = useState(fromPage);
  if (pageItem !== fromPage) {
    setPageItem(fromPage);
    setItemId(fromPage);
  }

  if (!state.signedIn) {
    return (
      <Link
        to={`/login?redirectTo=${encodeURIComponent(here)}`}
        className={STAR_CLASS}
        aria-label={`Follow ${name}`}
        title="Log in to follow"
        data-testid="watch-star"
      >
        <StarIcon filled={false} />
      </Link>
    );
  }

  const followed = itemId !== undefined;

  async function toggle(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setProblem("");
    try {
      const res = followed
        ? await fetch(`/api/account/watchlist/${itemId}`, { method: "DELETE" })
        : await fetch("/api/account/watchlist", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ [FIELD[kind]]: id }),
          });
      if (res.status === 401) {
        window.location.assign(`/login?redirectTo=${encodeURIComponent(here)}`);
        return;
      }
      // 404 on unfollow: already gone (another tab), which is what was asked.
      if (followed && (res.ok || res.status === 404)) setItemId(undefined);
      else if (!followed && res.ok) setItemId(((await res.json()) as { item: { id: number } }).item.id);
      else setProblem(((await res.json().catch(() => ({}))) as { message?: string }).message ?? "Please try again.");
    } catch {
      setProblem("Could not reach the server. Please try again.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <form method="post" action="/account/watchlist" onSubmit={toggle} className="inline-flex items-center">
      <input type="hidden" name="intent" value={followed ? "unfollow" : "follow"} />
      <input type="hidden" name={FIELD[kind]} value={id} />
      <input type="hidden" name="redirectTo" value={here} />
      <button
        type="submit"
        className={STAR_CLASS}
        aria-pressed={followed}
        aria-label={`${followed ? "Unfollow" : "Follow"} ${name}`}
        title={followed ? "Following: click to unfollow" : "Follow: see its changes in your watchlist"}
        data-testid="watch-star"
        // Not `disabled`: that would drop keyboard focus while the request runs.
        aria-busy={busy || undefined}
      >
        <StarIcon filled={followed} />
      </button>
      <span role="status" className="sr-only">
        {problem}
      </span>
    </form>
  );
}
