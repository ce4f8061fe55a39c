// Offers picked for comparison (up to COMPARE_MAX), kept for the browser tab in
// sessionStorage so a pick survives searching and paging. Without JavaScript the
// table's checkboxes submit the GET form #compare-form to /compare directly.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { Link } from "#app/ui/Link.tsx";
import { COMPARE_MAX, compareUrl } from "#contracts/offers.ts";

const STORAGE_KEY = "oa.compare";
const COMPARE_FORM_ID = "compare-form";

type Picked = { id: number; name: string };
type Selection = { picked: Picked[]; toggle: (offer: Picked) => void; clear: () => void; hydrated: boolean };

const CompareContext = createContext<Selection | null>(null);

export function CompareProvider({ children }: { children: ReactNode }) {
  const [picked, setPicked] = useState<Picked[]>([]);
  const [hydrated, setHydrated] = useState(false);

  useEffect(() => {
    try {
      const saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "[]") as Picked[];
      // Reading the tab's storage once after hydration (the server has none).
      // eslint-disable-next-line react-hooks/set-state-in-effect
      if (Array.isArray(saved)) setPicked(saved.filter((p) => Number.isInteger(p?.id)).slice(0, COMPARE_MAX));
    } catch {
      // Storage blocked or corrupt: start empty.
    }
    setHydrated(true);
  }, []);

  useEffect(() => {
    if (!hydrated) return;
    try {
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify(picked));
    } catch {
      // Private mode without storage: the pick lasts for this page only.
    }
  }, [picked, hydrated]);

  const toggle = useCallback((offer: Picked) => {
    setPicked((cur) =>
      cur.some((p) => p.id === offer.id)
        ? cur.filter((p) => p.id !== offer.id)
        : cur.length >= COMPARE_MAX
          ? cur
          : [...cur, offer],
    );
  }, []);
  const clear = useCallback(() => setPicked([]), []);
  const value = useMemo(() => ({ picked, toggle, clear, hydrated }), [picked, toggle, clear, hydrated]);
  return <CompareContext.Provider value={value}>{children}</CompareContext.Provider>;
}

function useCompare(): Selection | null {
  return useContext(CompareContext);
}

/** The checkbox in an offers table row. */
export function CompareCheckbox({ offer }: { offer: Picked }) {
  const selection = useCompare();
  const checked = selection?.picked.some((p) => p.id === offer.id) ?? false;
  const full = (selection?.picked.length ?? 0) >= COMPARE_MAX;
  return (
    <input
      type="checkbox"
      form={COMPARE_FORM_ID}
      name="ids"
      value={offer.id}
      aria-label={`Compare ${offer.name}`}
      className="h-4 w-4 accent-brand-600"
      checked={checked}
      disabled={!checked && full}
      onChange={() => selection?.toggle(offer)}
    />
  );
}

/** The bar under the table: what is picked and the Compare button. */
export function CompareBar() {
  const selection = useCompare();
  const picked = selection?.hydrated ? selection.picked : [];
  return (
    <form
      id={COMPARE_FORM_ID}
      method="get"
      action="/compare"
      className="mt-3 flex flex-wrap items-center gap-3 rounded-md border border-slate-200 bg-white p-3 text-sm"
      aria-label="Compare offers"
    >
      <span className="font-medium">Compare up to {COMPARE_MAX} offers:</span>
      {picked.length ? (
        <ul className="flex flex-wrap gap-2">
          {picked.map((p) => (
            <li key={p.id} className="rounded bg-brand-50 px-2 py-0.5 text-brand-700">
              {p.name}
              <button
                type="button"
                className="ml-1 text-slate-500 hover:text-slate-900"
                aria-label={`Remove ${p.name} from compare`}
                onClick={() => selection?.toggle(p)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <span className="text-slate-500">tick the boxes in the table.</span>
      )}
      {selection?.hydrated ? (
        <>
          {picked.length < 2 ? (
            // Nothing to compare yet: no address, so neither a Tab stop nor a way to /compare?ids=.
            <a role="link" aria-disabled="true" className="btn-primary cursor-not-allowed opacity-60">
              Compare ({picked.length})
            </a>
          ) : (
            <Link to={compareUrl(picked.map((p) => p.id))} className="btn-primary">
              Compare ({picked.length})
            </Link>
          )}
          {picked.length > 0 && (
            <button type="button" className="link" onClick={() => selection.clear()}>
              Clear
            </button>
          )}
        </>
      ) : (
        <button type="submit" className="btn-primary">
          Compare selected
        </button>
      )}
    </form>
  );
}
