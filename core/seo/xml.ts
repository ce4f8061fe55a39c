// XML text escaping for the sitemaps and the feed (attribute-safe).
const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

export const xml = (s: string) =>
  // Characters XML 1.0 forbids are dropped rather than escaped.
  // eslint-disable-next-line no-control-regex
  s.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "").replace(/[&<>"']/g, (c) => ENTITIES[c]);
