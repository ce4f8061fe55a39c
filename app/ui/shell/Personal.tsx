// The personal parts of the page every signed-in visitor shares (docs/decisions/0029):
// once the page runs, one request for the user's name and the stars on screen, again
// after each navigation. It also tells the server this browser runs the page's script.
import { createContext, useContext, useEffect, useState, type ReactNode } from "react";
import { useLocation, useMatches, type UIMatch } from "react-router";
import { SCRIPT_COOKIE, type PersonalParts } from "#contracts/personal.ts";
import type { WatchState } from "#contracts/watchlist.ts";

const Personal = createContext<PersonalParts | null>(null);

/** This user's parts of a shared page, once they came (null in a page rendered for its user). */
export const usePersonal = () => useContext(Personal);

/** The ids the page's loaders left for the browser to ask about, as the request's query. */
function askedQuery(matches: UIMatch[]): string {
  const offerIds = new Set<number>();
  const networkIds = new Set<number>();
  for (const match of matches) {
    const ask = (match.loaderData as { watch?: WatchState } | undefined)?.watch?.ask;
    ask?.offerIds.forEach((id) => offerIds.add(id));
    ask?.networkIds.forEach((id) => networkIds.add(id));
  }
  return new URLSearchParams({ offerIds: [...offerIds].join(","), networkIds: [...networkIds].join(",") }).toString();
}

const RELOADED = "oa-signed-out-reload";

/** Once per signing out: a cookie the answer could not clear must not reload the page forever. */
function reloadSignedOut() {
  if (sessionStorage.getItem(RELOADED)) return;
  sessionStorage.setItem(RELOADED, "1");
  window.location.reload();
}

export function PersonalProvider({ shared, children }: { shared: boolean; children: ReactNode }) {
  const query = askedQuery(useMatches());
  const { key } = useLocation();
  const [parts, setParts] = useState<PersonalParts | null>(null);

  useEffect(() => {
    const secure = window.location.protocol === "https:" ? "; secure" : "";
    document.cookie = `${SCRIPT_COOKIE}=1; path=/; samesite=lax${secure}`;
  }, []);

  useEffect(() => {
    if (!shared) return;
    let current = true;
    fetch(`/api/account/personal?${query}`, { headers: { accept: "application/json" } })
      .then(async (res) => {
        // The session ended: the answer cleared its cookie, so the page comes back signed out.
        if (res.status === 401) reloadSignedOut();
        else if (res.ok && current) {
          sessionStorage.removeItem(RELOADED);
          setParts((await res.json()) as PersonalParts);
        }
      })
      .catch(() => {}); // No answer: the page stays as served, its stars still work.
    return () => {
      current = false;
    };
  }, [shared, query, key]);

  return <Personal.Provider value={shared ? parts : null}>{children}</Personal.Provider>;
}
