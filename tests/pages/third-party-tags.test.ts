// Third-party tags as the server renders them: without settings no tag host is in
// the page and the policy is the strict one; with settings the policy names
// exactly the configured tags' hosts, and the page carries no third-party script
// of its own (the browser adds them after consent: tests/e2e/consent.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { AUTH_COOKIE } from "#core/auth/sessions.ts";
import { TAG_HOSTS } from "#contracts/tags.ts";
import type { SiteTags } from "#contracts/tags.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRoles } from "../helpers/staff.ts";

let t: TestApp;
let admin: Awaited<ReturnType<typeof signInWithRoles>>;

beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 4, offers: 20, trafficSources: 2 } });
  admin = await signInWithRoles(t, ["admin"]);
  const [site] = await t.db.query<{ links: Record<string, string> }>(
    sql`SELECT links FROM sites WHERE id = ${t.config.siteId}`,
  );
  siteLinks = Object.values(site.links);
  expect(siteLinks.join(" ")).toContain("www.facebook.com");
});
afterAll(() => t?.close());

const PAGES = ["/", "/networks", "/traffic-sources", "/contact"];
const TAGS = {
  analyticsId: "G-ABC123DEF4",
  pixelId: "1234567890123456",
  gptNetworkCode: "21812345",
  gptSlots: { "728x90": "offeratlas/header", "125x125": "offeratlas/small" },
  consentRequired: true,
};

/** Every tag host without its wildcard: none may appear in a page that loads no tags. */
const TAG_HOST_NAMES = [
  ...new Set(Object.values(TAG_HOSTS).flatMap((h) => [...h.script, ...h.connect, ...h.frame])),
].map((host) => host.replace("https://", "").replace("*.", ""));

/** The hosts the tags' scripts come from: the server never writes them into a page. */
const TAG_SCRIPT_HOSTS = Object.values(TAG_HOSTS).flatMap((h) => h.script.map((host) => host.replace("https://", "")));

/** The policy as directive → sources, with the request's nonce written as NONCE. */
function policy(header: unknown): Record<string, string[]> {
  const csp = String(header);
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1] ?? "(none)";
  return Object.fromEntries(
    csp
      .replaceAll(nonce, "NONCE")
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );
}

/** The page without the site's own outside links: a link to its Facebook page is not a third-party load. */
let siteLinks: string[] = [];
const loadedMarkup = (html: string) => siteLinks.reduce((page, link) => page.replaceAll(link, ""), html);

async function saveTags(tags: object) {
  const { updatedAt } = (await t.app.inject({ url: "/api/admin/tags", headers: admin.headers })).json<SiteTags>();
  const res = await t.app.inject({
    method: "PUT",
    url: "/api/admin/tags",
    headers: admin.headers,
    payload: { ...tags, updatedAt },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** The footer's way back to the consent question. */
const COOKIE_SETTINGS = /<button[^>]*>Cookie settings<\/button>/;

let strict: Record<string, string[]>;

describe("third-party tags in server-rendered pages", () => {
  it("without settings: no tag host in any page, no cookie settings, and the strict policy", async () => {
    strict = policy((await t.app.inject("/api/ping")).headers["content-security-policy"]);
    expect(strict["script-src"]).toEqual(["'self'", "'nonce-NONCE'"]);
    expect(strict["connect-src"]).toEqual(["'self'"]);
    expect(strict["frame-src"]).toEqual(["'none'"]);
    for (const url of PAGES) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(policy(res.headers["content-security-policy"]), url).toEqual(strict);
      const markup = loadedMarkup(res.body);
      for (const host of TAG_HOST_NAMES) expect(markup, `${url} ${host}`).not.toContain(host);
      expect(res.body, url).not.toMatch(COOKIE_SETTINGS);
      expect(res.body, url).not.toContain("data-ad-unit");
    }
    // Every id empty is the same as never configured.
    await saveTags({ consentRequired: true });
    const res = await t.app.inject("/");
    expect(policy(res.headers["content-security-policy"])).toEqual(strict);
    expect(res.body).not.toMatch(COOKIE_SETTINGS);
  });

  it("with settings: the policy names exactly the tags' hosts; no third-party script is rendered", async () => {
    // The pages above read (and cached) "no tags": the save must reach them at once.
    await saveTags(TAGS);
    for (const url of PAGES) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(200);
      const csp = policy(res.headers["content-security-policy"]);
      expect(csp, url).toEqual({
        ...strict,
        "script-src": [
          "'self'",
          "'nonce-NONCE'",
          "https://www.googletagmanager.com",
          "https://connect.facebook.net",
          "https://securepubads.g.doubleclick.net",
        ],
        "connect-src": [
          "'self'",
          "https://www.googletagmanager.com",
          "https://*.google-analytics.com",
          "https://*.analytics.google.com",
          "https://connect.facebook.net",
          "https://www.facebook.com",
          "https://securepubads.g.doubleclick.net",
          "https://pagead2.googlesyndication.com",
        ],
        "frame-src": [
          "https://securepubads.g.doubleclick.net",
          "https://tpc.googlesyndication.com",
          "https://*.safeframe.googlesyndication.com",
          "https://googleads.g.doubleclick.net",
        ],
      });
      // No script, frame or stylesheet from elsewhere: the tags wait for the visitor's consent.
      expect(res.body, url).not.toMatch(/<(script|iframe)\b[^>]*\bsrc="https?:/);
      expect(res.body, url).not.toMatch(/<link\b[^>]*\brel="(stylesheet|preload|modulepreload)"[^>]*\bhref="https?:/);
      const markup = loadedMarkup(res.body);
      for (const host of TAG_SCRIPT_HOSTS) expect(markup, `${url} ${host}`).not.toContain(host);
      expect(res.body, url).toMatch(COOKIE_SETTINGS);
    }
    // A JSON answer keeps the strict policy.
    expect(policy((await t.app.inject("/api/ping")).headers["content-security-policy"])).toEqual(strict);
    // So does the console: no third-party code runs beside a staff session.
    const session = `${AUTH_COOKIE}=${admin.headers.authorization.replace("Bearer ", "")}; oa_consent=accepted`;
    const consolePage = await t.app.inject({ url: "/admin/tags", headers: { cookie: session } });
    expect(consolePage.statusCode).toBe(200);
    expect(policy(consolePage.headers["content-security-policy"])).toEqual(strict);
    expect(consolePage.body).not.toMatch(COOKIE_SETTINGS);
  });

  it("fills a slot from the ad server only after consent; house ads otherwise", async () => {
    const home = (cookie?: string) => t.app.inject({ url: "/", headers: cookie ? { cookie } : {} });
    for (const cookie of [undefined, "oa_consent=rejected", "oa_consent=maybe"]) {
      const res = await home(cookie);
      expect(res.body, cookie).not.toContain("data-ad-unit");
      expect(res.body, cookie).toContain('data-ad-size="728x90"');
    }
    const accepted = await home("theme=dark; oa_consent=accepted");
    expect(accepted.body).toContain('data-ad-unit="/21812345/offeratlas/header"');
    expect(accepted.body).toContain('data-ad-unit="/21812345/offeratlas/small"');
    // Sizes without an ad unit keep their house ads.
    expect(accepted.body).not.toMatch(/data-ad-size="(270x70|250x250|370x165)"[^>]*data-ad-unit/);

    // A site that does not ask loads the tags for everyone who has not said no.
    await saveTags({ ...TAGS, consentRequired: false });
    expect((await home()).body).toContain('data-ad-unit="/21812345/offeratlas/header"');
    expect((await home("oa_consent=rejected")).body).not.toContain("data-ad-unit");
  });

  it("allows only the hosts of the tags configured", async () => {
    await saveTags({ analyticsId: "G-ABC123DEF4", consentRequired: true });
    const csp = policy((await t.app.inject("/")).headers["content-security-policy"]);
    expect(csp["script-src"]).toEqual(["'self'", "'nonce-NONCE'", "https://www.googletagmanager.com"]);
    expect(csp["connect-src"]).toEqual([
      "'self'",
      "https://www.googletagmanager.com",
      "https://*.google-analytics.com",
      "https://*.analytics.google.com",
    ]);
    expect(csp["frame-src"]).toEqual(["'none'"]);

    await saveTags({ pixelId: "1234567890123456", consentRequired: true });
    const pixel = policy((await t.app.inject("/networks")).headers["content-security-policy"]);
    expect(pixel["script-src"]).toEqual(["'self'", "'nonce-NONCE'", "https://connect.facebook.net"]);
    expect(pixel["connect-src"]).toEqual(["'self'", "https://connect.facebook.net", "https://www.facebook.com"]);
    expect(pixel["frame-src"]).toEqual(["'none'"]);
  });
});
