/**
 * Whether an address typed in by someone else (a network's website or joining
 * link, an ad's target) may be linked: http(s) only, never javascript: or data:.
 */
export const isWebUrl = (v: unknown): v is string => typeof v === "string" && /^https?:\/\//i.test(v);
