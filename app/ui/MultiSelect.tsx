// A multi-select dropdown built on <details>: natively keyboard operable
// (Tab to the summary, Enter/Space to open, Tab through checkboxes, Escape or
// Tab out to close), announced as an expandable button, and a plain set of checkboxes
// inside a GET form when JavaScript is off. Collapsed it reads "N selected".
//
// The lists are long (thousands of networks at scale), so a page carries only
// the ticked options; the whole list is loaded and drawn when the dropdown
// first opens. Without JavaScript, the dropdown links to the same page with the
// whole list in it.
import { useEffect, useRef, useState } from "react";

/** One choice of a list. */
export type Option = { value: string; label: string };
/** The options a page carries and how many the whole list has. */
export type FilterList = { count: number; options: Option[] };

export function MultiSelect({
  label,
  name,
  list,
  loadAll,
  selected,
  onChange,
  placeholder,
  showAll,
  showAllHref,
}: {
  label: string;
  /** The query-string name the checkboxes submit under (networks, countries, categories). */
  name: string;
  /** The options the page carries (the ticked ones, or all with `showAll`) and how many there are. */
  list: FilterList;
  /** Every option, for the open dropdown. */
  loadAll: () => Promise<Option[]>;
  selected: string[];
  /** With JavaScript: called with the new selection (the form is not submitted). */
  onChange?: (values: string[]) => void;
  placeholder: string;
  /** Every option is in the page, open (the no-JavaScript "show all" page). */
  showAll: boolean;
  /** Where "Show all" leads without JavaScript. */
  showAllHref: string;
}) {
  // From the field's name, not useId: the list is server-rendered and its search box is not,
  // and the browser's renderer numbers ids differently from the server's (docs/decisions/0035).
  const listId = `filter-${name}-options`;
  const details = useRef<HTMLDetailsElement>(null);
  const summary = useRef<HTMLElement>(null);
  const [picked, setPicked] = useState(selected);
  const [filter, setFilter] = useState("");
  const [open, setOpen] = useState(showAll);
  const [all, setAll] = useState<Option[] | null>(showAll ? list.options : null);
  const [failed, setFailed] = useState(false);
  const [hydrated, setHydrated] = useState(false);
  const key = selected.join(",");
  // Follow `selected` when it changes (Clear Filters, back button, the logo), and only then:
  // the page passes the selection its last tick asked for, so an earlier tick's results
  // arriving late (navigation going idle on the old selection) never undo a newer tick.
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setPicked(key ? key.split(",") : []);
  }, [key]);

  // Close when a click lands outside the open dropdown.
  useEffect(() => {
    const onPointer = (e: PointerEvent) => {
      if (details.current?.open && !details.current.contains(e.target as Node)) details.current.open = false;
    };
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
  }, []);

  const toggle = (value: string) => {
    const next = picked.includes(value) ? picked.filter((v) => v !== value) : [...picked, value];
    setPicked(next);
    onChange?.(next);
  };
  const onToggle = (isOpen: boolean) => {
    setOpen(isOpen);
    if (isOpen && !all) {
      setFailed(false);
      loadAll().then(setAll, () => setFailed(true));
    }
  };
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setHydrated(true);
    // Opened before the page's script started: its toggle went unheard, so load the list now.
    if (details.current?.open && !showAll) onToggle(true);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the page starts
  }, []);
  const needle = filter.trim().toLowerCase();
  const listed = open && all ? all : list.options.filter((o) => picked.includes(o.value));
  const shown = needle ? listed.filter((o) => o.label.toLowerCase().includes(needle)) : listed;

  return (
    <details
      ref={details}
      className="group relative"
      data-filter={name}
      open={showAll || undefined}
      onToggle={(e) => onToggle(e.currentTarget.open)}
      onKeyDown={(e) => {
        if (e.key === "Escape" && details.current?.open) {
          details.current.open = false;
          summary.current?.focus();
        }
      }}
      // Tab past the last option closes the list, so the next control is one stop away
      // (not 300). Focus going nowhere (a click inside) keeps it; outside clicks close above.
      onBlur={(e) => {
        const next = e.relatedTarget as Node | null;
        if (next && details.current?.open && !details.current.contains(next)) details.current.open = false;
      }}
    >
      <summary
        ref={summary}
        className="input flex min-w-44 cursor-pointer list-none items-center justify-between gap-2 [&::-webkit-details-marker]:hidden"
      >
        <span>
          <span className="sr-only">{label}: </span>
          <span className={picked.length ? "font-medium" : "text-slate-500"}>
            {picked.length ? `${picked.length} selected` : placeholder}
          </span>
        </span>
        <span aria-hidden="true" className="text-xs text-slate-500 group-open:rotate-180">
          ▾
        </span>
      </summary>
      <div className="absolute left-0 z-30 mt-1 w-72 rounded-md border border-slate-200 bg-white p-2 shadow-lg">
        {open && all && all.length > 8 && (
          <input
            type="search"
            className="input mb-2"
            placeholder={`Find ${label.toLowerCase()}…`}
            aria-label={`Find ${label.toLowerCase()}`}
            aria-controls={listId}
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
          />
        )}
        <fieldset>
          <legend className="sr-only">{label}</legend>
          {/* Styles sit on the list, not on each of the ~250 options: the page stays small. */}
          <ul
            id={listId}
            className="max-h-64 overflow-y-auto text-sm [&_input]:h-4 [&_input]:w-4 [&_input]:accent-brand-600 [&_label]:flex [&_label]:cursor-pointer [&_label]:items-center [&_label]:gap-2 [&_label]:rounded [&_label]:px-1.5 [&_label]:py-1 [&_label:hover]:bg-slate-50"
          >
            {shown.map((o) => (
              <li key={o.value}>
                <label>
                  <input
                    type="checkbox"
                    name={name}
                    value={o.value}
                    checked={picked.includes(o.value)}
                    onChange={() => toggle(o.value)}
                  />
                  {o.label}
                </label>
              </li>
            ))}
            {open && all && !shown.length && <li className="px-1.5 py-1 text-sm text-slate-500">No match</li>}
          </ul>
        </fieldset>
        {open && !all && !failed && (
          <p className="px-1.5 py-1 text-sm text-slate-500" role="status">
            Loading {label.toLowerCase()}…
          </p>
        )}
        {((!open && !hydrated) || failed) && (
          <a className="link mt-1 block px-1.5 text-sm" href={showAllHref}>
            Show all {list.count} {label.toLowerCase()}
          </a>
        )}
      </div>
    </details>
  );
}
