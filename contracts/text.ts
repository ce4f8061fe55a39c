// What counts as text we accept and store: no NUL byte (PostgreSQL cannot store
// it) and no lone UTF-16 surrogate (not text at all). The HTTP boundary refuses
// anything else with 400; services that keep text on their own (the search log) skip it.

export const isStorableText = (s: string) => !s.includes("\0") && s.isWellFormed();

/** True when any string in `value` (keys included, at any depth) is not storable text. */
export function holdsUnsafeText(value: unknown): boolean {
  // Iterative: a hostile body may nest deeper than the call stack.
  const pending: unknown[] = [value];
  while (pending.length) {
    const v = pending.pop();
    if (typeof v === "string") {
      if (!isStorableText(v)) return true;
    } else if (Array.isArray(v)) {
      pending.push(...v);
    } else if (isPlainObject(v)) {
      for (const [key, inner] of Object.entries(v)) {
        if (!isStorableText(key)) return true;
        pending.push(inner);
      }
    }
  }
  return false;
}

// Parsed JSON, query strings and form fields are plain objects (a query string's may
// inherit from a bare prototype-less object); streams and buffers are not text.
function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object") return false;
  const proto = Object.getPrototypeOf(v);
  return proto === null || proto === Object.prototype || Object.getPrototypeOf(proto) === null;
}

/**
 * docs/product.md §5: the offer search query is lowercased and trimmed before sending (and again on
 * arrival). Here, away from the zod schemas, so a page that only shows a search's words ships no zod.
 */
export function normalizeOfferQuery(query: string | null | undefined): string {
  return (query ?? "").toLowerCase().replace(/\s+/g, " ").trim();
}
