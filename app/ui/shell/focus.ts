// Where focus goes when part of a page is replaced under the visitor: the heading of
// the region that changed (announced by a screen reader, and the next Tab continues
// from there), or the region itself when it has none.

/** Focus `region`'s main heading (made focusable from script only), else the region; scrolls it into view. */
export function focusRegion(region: HTMLElement) {
  const target = region.querySelector<HTMLElement>("h1") ?? region.querySelector<HTMLElement>("h2, h3") ?? region;
  if (!target.hasAttribute("tabindex")) target.tabIndex = -1;
  target.focus();
}
