// A list the browser keeps as the server wrote it on a page's first load (docs/decisions/0046).
// Hydrating a list means walking every item the server rendered; for a list of plain links
// (/links: 500 of them) that is work with nothing to show for it, since its links need no handler
// of their own (app/ui/Link.tsx). So while the page hydrates, the list renders an empty
// dangerouslySetInnerHTML, which Preact leaves alone in hydration, keeping the server's items.
// Once its items change (the next page of the list, a client navigation), it renders them.
import { useState, type HTMLAttributes, type ReactNode } from "react";
import { isFirstHydration } from "#app/ui/shell/HydrateLater.tsx";

/** What the list renders while it keeps the server's items: Preact sets no HTML in hydration. */
const KEPT = { __html: "" };

export function KeptList<T>({
  items,
  children,
  ...list
}: { items: readonly T[]; children: (item: T) => ReactNode } & Omit<HTMLAttributes<HTMLUListElement>, "children">) {
  // The items the server rendered, while the page hydrates (null: a list rendered in the browser).
  const [served] = useState(() => (isFirstHydration() ? items : null));
  if (items === served) return <ul {...list} dangerouslySetInnerHTML={KEPT} />;
  return <ul {...list}>{items.map(children)}</ul>;
}
