// helmet: strict headers by default, a nonce-based Content-Security-Policy
// for scripts, no framing, no MIME sniffing, HSTS in production.
import crypto from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import helmet, { contentSecurityPolicy } from "helmet";
import type { FastifyInstance } from "fastify";
import type { Config } from "#server/config.ts";
import { isConsolePath, tagSources } from "#contracts/tags.ts";

declare module "node:http" {
  interface ServerResponse {
    cspNonce?: string;
  }
}

/** The build's fingerprinted scripts and stylesheets (plugins/external/static.ts). */
export const ASSETS_PREFIX = "/assets/";

/** Also sent with each script and stylesheet (plugins/external/static.ts): it rules their own requests. */
export const REFERRER_POLICY = "strict-origin-when-cross-origin";

/** Random bytes drawn 256 nonces at a time: one system call each was 7% of a page served from its copy. */
let randomPool = Buffer.alloc(0);
let poolAt = 0;

/** A CSP nonce (16 random bytes): also the placeholder of a page rendered for the page cache alone (plugins/react-router.ts). */
export function newNonce(): string {
  if (poolAt + 16 > randomPool.length) {
    randomPool = crypto.randomBytes(16 * 256);
    poolAt = 0;
  }
  return randomPool.toString("base64", poolAt, (poolAt += 16));
}

/**
 * The hash source that allows an inline script of exactly this text. A copy of a page served to
 * many visitors allows its own scripts this way instead of by a nonce (plugins/page-cache.ts):
 * a nonce everyone can read would allow anyone's script.
 */
export const scriptHashSource = (text: string) =>
  `'sha256-${crypto.createHash("sha256").update(text).digest("base64")}'`;

/** The policy with its script nonce replaced by `hashes` (a policy without a nonce is left as it is). */
export const withScriptHashes = (csp: string, hashes: readonly string[]) =>
  csp.replace(/ ?'nonce-[^']*'/, hashes.length ? ` ${hashes.join(" ")}` : "");

/** Stands for the nonce in the policy's text; helmet accepts it as a nonce's value. */
const NONCE_MARK = "oa-nonce-mark";

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/**
 * The headers a helmet middleware sets, recorded once. They are the same for every answer, so
 * each answer gets them without helmet checking and writing its options again (for the
 * policy, 8% of a small API answer's CPU; the rest, 7%).
 */
function headersSetBy(middleware: Middleware): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: () => {}, // X-Powered-By, which nothing here sets
  } as unknown as ServerResponse;
  let passed = false;
  middleware({} as IncomingMessage, res, () => (passed = true));
  if (!passed) throw new Error("a security header middleware did not finish at once");
  return headers;
}

/** The policy's text before and after the nonce. */
function aroundNonce(headers: Record<string, string>): [string, string] {
  const parts = headers["content-security-policy"]?.split(NONCE_MARK) ?? [];
  if (parts.length !== 2) throw new Error("the content security policy must name the nonce once");
  return [parts[0], parts[1]];
}

const RECAPTCHA_HOSTS = ["https://www.google.com", "https://www.gstatic.com", "https://www.recaptcha.net"];

export async function registerSecurityHeaders(app: FastifyInstance, config: Config, options: { dev: boolean }) {
  const antibot = config.recaptcha.siteKey ? RECAPTCHA_HOSTS : [];
  // helmet's middleware, built once: @fastify/helmet built it again for every request, 12% of
  // a page served from its copy (docs/decisions/0042).
  // The policy is the same text for every answer but its nonce: written once, with a marker
  // where each answer's nonce goes.
  const policy = options.dev
    ? undefined // Vite's dev server injects inline scripts and a websocket; the policy applies to real builds.
    : aroundNonce(
        headersSetBy(
          contentSecurityPolicy({
            useDefaults: false,
            directives: {
              defaultSrc: ["'self'"],
              baseUri: ["'self'"],
              objectSrc: ["'none'"],
              frameAncestors: ["'none'"],
              formAction: ["'self'"],
              scriptSrc: ["'self'", `'nonce-${NONCE_MARK}'`, ...antibot],
              styleSrc: ["'self'", "'unsafe-inline'"],
              imgSrc: ["'self'", "data:", "https:"],
              fontSrc: ["'self'", "data:"],
              connectSrc: ["'self'", ...antibot],
              frameSrc: antibot.length ? antibot : ["'none'"],
              upgradeInsecureRequests: config.env === "production" && config.publicUrl.startsWith("https:") ? [] : null,
            },
          }),
        ),
      );
  const headers = headersSetBy(
    helmet({
      contentSecurityPolicy: false,
      hsts: config.publicUrl.startsWith("https:") ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: REFERRER_POLICY },
    }),
  );
  app.addHook("onRequest", (request, reply, done) => {
    // A script or stylesheet is no document: the rules of framing, scripts and the window do
    // nothing on it, and a page loads some 30 of them at once, so each one skips these
    // (static.ts sends the headers that do apply).
    if (request.routeOptions.url?.startsWith(ASSETS_PREFIX)) return done();
    // Fastify's own headers, written with the status in one go: the response's setHeader checks
    // each name and value on the spot (7% of a small API answer's CPU for these eleven).
    reply.headers(headers);
    if (policy) reply.header("content-security-policy", policy[0] + (reply.raw.cspNonce ??= newNonce()) + policy[1]);
    done();
  });
  // A page of a site with third-party tags allows exactly their hosts (docs/decisions/0014);
  // every other answer, and the console, keeps the policy above, as does a page whose
  // site's settings cannot be read.
  if (!options.dev) {
    app.addHook("onSend", async (request, reply) => {
      const csp = reply.getHeader("content-security-policy");
      if (typeof csp !== "string" || !String(reply.getHeader("content-type")).startsWith("text/html")) return;
      if (isConsolePath(request.url.split("?")[0])) return;
      const tags = await app.services.siteTags.forPage(app.services.sites.defaultSiteId).catch(() => null);
      if (tags) reply.header("content-security-policy", withTagSources(csp, tagSources(tags)));
    });
  }
}

/** The policy with each tag host added to its directive (a frame-src of 'none' gives way to them). */
function withTagSources(csp: string, sources: ReturnType<typeof tagSources>): string {
  const extra: Record<string, string[]> = {
    "script-src": sources.script,
    "connect-src": sources.connect,
    "frame-src": sources.frame,
  };
  return csp
    .split(";")
    .map((directive) => {
      const [name, ...values] = directive.trim().split(/\s+/);
      const add = extra[name]?.filter((host) => !values.includes(host)) ?? [];
      if (!add.length) return directive;
      return [name, ...values.filter((v) => v !== "'none'"), ...add].join(" ");
    })
    .join(";");
}
