// The visitor's consent to the site's third-party tags (docs/decisions/0014): the
// banner that asks, the footer's way back to it, and whether the tags may load.
// A site without tags never asks and never loads anything third-party.
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from "react";
import { useLocation } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import type { AdSize } from "#contracts/ads.ts";
import { isConsolePath, type PageTags } from "#contracts/tags.ts";
import { forgetTagCookies, rememberConsent, type ConsentChoice } from "./cookie";
import { ThirdPartyTags } from "./ThirdPartyTags";

type Consent = {
  tags: PageTags | null;
  /** The tags may load: accepted, or not asked for on this site and not refused. */
  allowed: boolean;
  openSettings: () => void;
};

/** No store to watch: useSyncExternalStore only tells the server render and hydration from the running page. */
const noSubscription = () => () => {};

const ConsentContext = createContext<Consent>({ tags: null, allowed: false, openSettings: () => {} });

export function ConsentProvider({
  tags: siteTags,
  choice: remembered,
  children,
}: {
  tags: PageTags | null;
  choice: ConsentChoice | null;
  children: ReactNode;
}) {
  // The console loads no tags and asks nothing.
  const inConsole = isConsolePath(useLocation().pathname);
  const tags = inConsole ? null : siteTags;
  const [choice, setChoice] = useState(remembered);
  const [settingsOpen, setSettingsOpen] = useState(false);
  // The banner needs JavaScript to answer, and so do the tags: it appears once the page runs.
  const running = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );

  const allowed = tags !== null && (tags.consentRequired ? choice === "accepted" : choice !== "rejected");
  const choose = useCallback(
    (next: ConsentChoice) => {
      rememberConsent(next);
      setSettingsOpen(false);
      if (allowed && next === "rejected") {
        // Scripts already running cannot be unloaded: drop their cookies and start the page afresh.
        forgetTagCookies();
        window.location.reload();
        return;
      }
      setChoice(next);
    },
    [allowed],
  );
  const openSettings = useCallback(() => setSettingsOpen(true), []);
  // Tags started on a public page keep running after a client-side move: the console opens afresh.
  const started = useRef(false);
  useEffect(() => {
    if (allowed) started.current = true;
    else if (inConsole && started.current) window.location.reload();
  }, [allowed, inConsole]);
  const asking = tags !== null && running && (settingsOpen || (tags.consentRequired && choice === null));

  return (
    <ConsentContext.Provider value={{ tags, allowed, openSettings }}>
      {children}
      {asking && (
        <ConsentBanner
          choice={choice}
          onChoose={choose}
          onClose={settingsOpen ? () => setSettingsOpen(false) : undefined}
        />
      )}
      {allowed && <ThirdPartyTags tags={tags} />}
    </ConsentContext.Provider>
  );
}

/** The full ad unit path for a slot size when the ad server may fill it, else undefined (house ads). */
export function useGptAdUnit(size: AdSize): string | undefined {
  const { tags, allowed } = useContext(ConsentContext);
  return allowed ? tags?.gptSlots[size] : undefined;
}

/** The footer's "Cookie settings" link: only on a site with tags. */
export function CookieSettingsLink({ className }: { className?: string }) {
  const { tags, openSettings } = useContext(ConsentContext);
  if (!tags) return null;
  return (
    <button type="button" onClick={openSettings} className={className}>
      Cookie settings
    </button>
  );
}

function ConsentBanner({
  choice,
  onChoose,
  onClose,
}: {
  choice: ConsentChoice | null;
  onChoose: (choice: ConsentChoice) => void;
  /** Only when opened from the footer: the visitor may leave the choice as it is. */
  onClose?: () => void;
}) {
  // Both answers look and weigh the same: refusing is as easy as accepting.
  const button = "min-w-28 rounded border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800";
  return (
    <section
      role="dialog"
      aria-labelledby="consent-title"
      aria-describedby="consent-text"
      data-testid="consent-banner"
      className="fixed inset-x-0 bottom-0 z-50 border-t border-slate-300 bg-white p-4 shadow-lg"
    >
      <div className="container-oa flex flex-col gap-3 md:flex-row md:items-center md:justify-between">
        <div>
          <h2 id="consent-title" className="text-sm font-semibold">
            Cookies and third-party services
          </h2>
          <p id="consent-text" className="mt-1 text-sm text-slate-600">
            With your consent we load page analytics, a social pixel and an ad server, which set cookies and learn that
            you visited. Nothing of theirs loads unless you accept; you can change your mind at any time from
            &ldquo;Cookie settings&rdquo; at the bottom of every page.{" "}
            <Link to="/privacy" className="link">
              Privacy policy
            </Link>
            {choice && (
              <span className="ml-1">(Your current choice: {choice === "accepted" ? "accepted" : "rejected"}.)</span>
            )}
          </p>
        </div>
        <div className="flex shrink-0 gap-2">
          <button type="button" className={button} onClick={() => onChoose("rejected")}>
            Reject
          </button>
          <button type="button" className={button} onClick={() => onChoose("accepted")}>
            Accept
          </button>
          {onClose && (
            <button type="button" className="px-2 text-sm text-slate-500 hover:underline" onClick={onClose}>
              Close
            </button>
          )}
        </div>
      </div>
    </section>
  );
}
