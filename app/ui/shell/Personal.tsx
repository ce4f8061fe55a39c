// The personal parts of the page every signed-in visitor shares (docs/decisions/0029, 0047):
// the user's name and every follow, asked for under the version the page's answer set in its
// cookie. The browser keeps that answer, so a navigation asks again only when the parts changed
// (a follow, on any device; a new session). It also tells the server this browser runs the
// page's script.
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import { useLocation } from "react-router";
import { PERSONAL_VERSION_COOKIE, SCRIPT_COOKIE, type PersonalParts } from "#contracts/personal.ts";

const Personal = createContext<PersonalParts | null>(null);

/** This user's parts of a shared page, once they came (null in a page rendered for its user). */
export const usePersonal = () => useContext(Personal);

const RELOADED = "oa-signed-out-reload";

/** Once per signing out: a cookie the answer could not clear must not reload the page forever. */
function reloadSignedOut() {
  if (sessionStorage.getItem(RELOADED)) return;
  sessionStorage.setItem(RELOADED, "1");
  window.location.reload();
}

/** The version of the parts the last page's answer told (none: a version no answer is kept under). */
function toldVersion(): string {
  const prefix = `${PERSONAL_VERSION_COOKIE}=`;
  const cookie = document.cookie.split("; ").find((c) => c.startsWith(prefix));
  return cookie?.slice(prefix.length) || "none";
}

export function PersonalProvider({ shared, children }: { shared: boolean; children: ReactNode }) {
  const { key } = useLocation();
  const [parts, setParts] = useState<PersonalParts | null>(null);
  /** The version the parts shown are at. */
  const shown = useRef<string | null>(null);

  useEffect(() => {
    const secure = window.location.protocol === "https:" ? "; secure" : "";
    document.cookie = `${SCRIPT_COOKIE}=1; path=/; samesite=lax${secure}`;
  }, []);

  useEffect(() => {
    if (!shared) return;
    const version = toldVersion();
    if (version === shown.current) return;
    let current = true;
    fetch(`/api/account/personal?v=${encodeURIComponent(version)}`, { headers: { accept: "application/json" } })
      .then(async (res) => {
        // The session ended: the answer cleared its cookie, so the page comes back signed out.
        if (res.status === 401) reloadSignedOut();
        else if (res.ok && current) {
          sessionStorage.removeItem(RELOADED);
          setParts((await res.json()) as PersonalParts);
          shown.current = version;
        }
      })
      .catch(() => {}); // No answer: the page stays as served, its stars still work.
    return () => {
      current = false;
    };
  }, [shared, key]);

  return <Personal.Provider value={shared ? parts : null}>{children}</Personal.Provider>;
}
