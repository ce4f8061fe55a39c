// The visitor's answer to the consent banner, kept in a first-party cookie
// (docs/decisions/0014): read by the root loader, written in the browser.
export type ConsentChoice = "accepted" | "rejected";

const COOKIE = "oa_consent";
/** Six months: then the visitor is asked again. */
const MAX_AGE_SECONDS = 180 * 24 * 60 * 60;

/** The choice a Cookie header carries, or null when the visitor has not answered. */
export function consentFromCookies(header: string | null): ConsentChoice | null {
  for (const part of (header ?? "").split(";")) {
    const [name, value] = part.trim().split("=");
    if (name === COOKIE && (value === "accepted" || value === "rejected")) return value;
  }
  return null;
}

/** Remembers the choice for this site (browser only). */
export function rememberConsent(choice: ConsentChoice) {
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `${COOKIE}=${choice}; Path=/; Max-Age=${MAX_AGE_SECONDS}; SameSite=Lax${secure}`;
}

/** Cookies the tags set themselves (analytics, pixel, ad server): dropped when consent is withdrawn. */
const TAG_COOKIE = /^(_ga|_gid|_gat|_fbp|_fbc|__gads|__gpi|__eoi)/;

export function forgetTagCookies() {
  const host = window.location.hostname;
  // They may be set on the host or on any parent domain.
  const domains = host.split(".").map((_, i, parts) => parts.slice(i).join("."));
  for (const part of document.cookie.split(";")) {
    const name = part.trim().split("=")[0];
    if (!TAG_COOKIE.test(name)) continue;
    document.cookie = `${name}=; Path=/; Max-Age=0`;
    for (const domain of domains) document.cookie = `${name}=; Path=/; Max-Age=0; Domain=${domain}`;
  }
}
