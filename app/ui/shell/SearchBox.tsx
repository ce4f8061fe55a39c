// The search header's text box. Without JavaScript it is a plain GET form; with
// it, typing updates the URL after a 500 ms pause (docs/product.md §4) without a reload.
import { useEffect, useRef, useState } from "react";
import { Form, useNavigate, useNavigation, useSearchParams } from "react-router";

export const SEARCH_DEBOUNCE_MS = 500;

const asTyped = (text: string) => text;

/** `normalize` turns what was typed into the URL's value (the offers search sends it lowercased and trimmed, docs/product.md §5). */
export function SearchBox({
  action,
  placeholder,
  label,
  normalize = asTyped,
}: {
  action: string;
  placeholder: string;
  label: string;
  normalize?: (text: string) => string;
}) {
  const [params] = useSearchParams();
  const current = params.get("search") ?? "";
  const [text, setText] = useState(current);
  const navigate = useNavigate();
  const typing = useRef(false);
  // A click that leaves this page within the debounce window wins over the pending search.
  const pending = useNavigation().location;
  const leavingPage = Boolean(pending && pending.pathname !== action);

  // Follow the URL when it changes from elsewhere (back button, Clear Searches, the logo).
  useEffect(() => {
    // Keep what was typed when it only differs in what normalising drops (case, a trailing space).
    if (!typing.current) setText((typed) => (normalize(typed) === current ? typed : current));
  }, [current, normalize]);

  useEffect(() => {
    if (!typing.current || leavingPage) return;
    const t = setTimeout(() => {
      typing.current = false;
      const value = normalize(text);
      if (value === current) return;
      const next = new URLSearchParams(params);
      next.set("search", value);
      next.set("page", "1");
      navigate(`${action}?${next.toString()}`, { replace: true, preventScrollReset: true });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [text, current, params, navigate, action, leavingPage, normalize]);

  return (
    <Form method="get" action={action} role="search" className="flex gap-2">
      {[...params.entries()]
        .filter(([k]) => k !== "search" && k !== "page")
        .map(([k, v], i) => (
          <input key={`${k}-${i}`} type="hidden" name={k} value={v} />
        ))}
      <label className="sr-only" htmlFor="search-box">
        {label}
      </label>
      <input
        id="search-box"
        type="search"
        name="search"
        value={text}
        placeholder={placeholder}
        autoComplete="off"
        className="input h-10 text-base"
        onChange={(e) => {
          typing.current = true;
          setText(e.target.value);
        }}
      />
      <button type="submit" className="btn-primary h-10">
        Search
      </button>
    </Form>
  );
}
