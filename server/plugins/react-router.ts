// Mounts the React Router request handler on every path the API does not own.
// Page forms are read here, once, within a size limit and only as the two form
// encodings a browser sends; their text is checked like every other input, and
// route actions get the bytes exactly as the browser sent them.
import { Readable as NodeReadable } from "node:stream";
import { Negotiator } from "@fastify/accept-negotiator";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import { requestContext, type RequestContext } from "#app/context.ts";
import type { Services } from "#core/services.ts";
import type { SharedStore } from "#core/cache/cache.ts";
import { AUTH_COOKIE, stripBearer } from "#core/auth/sessions.ts";
import { personalVersionCookie } from "#core/account/personal.ts";
import { OFFER_SEARCH_PAGES } from "#contracts/offers.ts";
import { PERSONAL_VERSION_COOKIE, SCRIPT_COOKIE } from "#contracts/personal.ts";
import type { SessionUser } from "#contracts/auth.ts";
import { badRequest } from "#core/errors.ts";
import { assertSafeText } from "./input-hygiene.ts";
import { newNonce, withScriptHashes } from "./external/helmet.ts";
import { endSessionInBrowser } from "../api/auth.ts";
import { COPY_ENCODINGS, createPageCache, sameForEveryone, type CopyEncoding, type PageView } from "./page-cache.ts";

/**
 * Largest page form posts: a urlencoded form is text (the API's JSON limit), a
 * multipart one carries a logo (its 500 KB limit is judged by the lead form, which
 * answers with the spec's message, so a few times that still reaches it).
 */
export const FORM_BODY_LIMITS = { urlencoded: 256 * 1024, multipart: 5 * 1024 * 1024 } as const;

export type BuildSource = ServerBuild | (() => Promise<ServerBuild>);

/** How long rendering an expired page's copy again may take; past it, a later request asks again. */
const REFRESH_TIMEOUT_MS = 10_000;

export async function registerPages(
  app: FastifyInstance,
  options: {
    build: BuildSource;
    services: Services;
    mode: "development" | "production";
    pageCacheSeconds: number;
    /** REDIS_URL: page copies every instance shares. */
    sharedStore?: SharedStore;
  },
) {
  const { build, services } = options;
  const pageCache = createPageCache({
    ttlMs: options.pageCacheSeconds * 1000,
    maxEntries: 200,
    generation: services.offers.catalogueVersion,
    shared: options.sharedStore,
  });
  const handle = createRequestHandler(build, options.mode);
  const encodings = new Negotiator({ supportedValues: [...COPY_ENCODINGS] });

  await app.register(async (scope) => {
    // Any other content type answers 415; a body over its limit answers 413 before it is read whole.
    scope.removeAllContentTypeParsers();
    const asBytes = (_request: FastifyRequest, body: Buffer, done: (err: null, body: Buffer) => void) =>
      done(null, body);
    scope.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "buffer", bodyLimit: FORM_BODY_LIMITS.urlencoded },
      asBytes,
    );
    scope.addContentTypeParser(
      "multipart/form-data",
      { parseAs: "buffer", bodyLimit: FORM_BODY_LIMITS.multipart },
      asBytes,
    );

    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      if (isPageSearch(request)) await app.searchBudget(request, reply);
      const body = Buffer.isBuffer(request.body) ? request.body : undefined;
      if (body) await checkForm(body, String(request.headers["content-type"]));
      const nonce = reply.raw.cspNonce ?? "";
      const cookies = request.cookies ?? {};
      const token = stripBearer(cookies[AUTH_COOKIE]);
      // The session is looked up once, and only when the answer depends on it (see viewOf).
      let session: Promise<SessionUser | null> | undefined;
      const sessionUser = () => (session ??= services.auth.userForToken(token));
      let view = pageCache.eligible(request.method, request.headers, cookies)
        ? await viewOf(token, cookies, sessionUser)
        : undefined;
      if (view === "signed-in") view = await toldPersonalVersion(token!, cookies, reply);
      const hit = view ? await pageCache.get(view, request.url) : undefined;
      if (hit) {
        if (hit.refresh) void refreshCopy(view!, request);
        for (const [name, val] of hit.headers) reply.header(name, val);
        const csp = reply.getHeader("content-security-policy");
        if (typeof csp === "string") reply.header("content-security-policy", withScriptHashes(csp, hit.scriptHashes));
        reply.status(hit.status).header("x-page-cache", hit.stale ? "stale" : "hit");
        // The copy as compressed once; until that is ready, compressed on the fly like any answer.
        const encoding = encodings.negotiate(String(request.headers["accept-encoding"] ?? "")) as CopyEncoding | null;
        const compressed = encoding ? hit.encoded[encoding] : undefined;
        if (!compressed) return reply.send(hit.body);
        return reply.header("content-encoding", encoding).header("vary", "accept-encoding").send(compressed);
      }

      const controller = new AbortController();
      reply.raw.once("close", () => controller.abort());
      const render = async (shared: boolean) =>
        handle(
          toWebRequest(request, body, controller.signal),
          await routerContext(request, nonce, shared ? null : await sessionUser(), shared),
        );
      let response = await render(view === "signed-in");
      let shareable = view && response.body ? await response.text() : undefined;
      if (
        view === "signed-in" &&
        !sameForEveryone({ status: response.status, headers: [...response.headers], body: shareable ?? "" })
      ) {
        // Not a page signed-in visitors can share (a redirect, an error, a page that needs its user): the user's own.
        response = await render(false);
        shareable = undefined;
      }
      // A post to a page that takes none: React Router's answer would quote the path back.
      if (response.status === 405) return reply.status(405).send({ message: "Method not allowed" });

      reply.status(response.status);
      const headers = pageHeaders(response);
      for (const [name, val] of headers) {
        if (name !== "set-cookie") reply.header(name, val);
      }
      const setCookies = response.headers.getSetCookie();
      if (setCookies.length) reply.header("set-cookie", setCookies);
      if (view && shareable !== undefined) {
        pageCache.offer(view, request.url, {
          status: response.status,
          headers,
          body: shareable,
          nonce,
        });
        return reply.send(shareable);
      }
      return reply.send(
        response.body ? NodeReadable.fromWeb(response.body as import("node:stream/web").ReadableStream) : null,
      );
    };

    /**
     * The shared signed-in page tells its browser, in the `oa_pv` cookie, the version its session's
     * personal parts are at (from memory, after the session's first view), so the page's script
     * asks for them only when they changed and otherwise shows its own kept answer
     * (docs/decisions/0047). A session that signs nobody in gets the anonymous page, its cookie cleared.
     */
    async function toldPersonalVersion(
      token: string,
      cookies: Record<string, string | undefined>,
      reply: FastifyReply,
    ): Promise<PageView> {
      const told = cookies[PERSONAL_VERSION_COOKIE];
      const version = await services.personalParts.version(token, told);
      if (version === null) {
        endSessionInBrowser(reply, services.secureCookies);
        return "anonymous";
      }
      if (version !== told) reply.header("set-cookie", personalVersionCookie(services.secureCookies, version));
      return "signed-in";
    }

    /** What a page's loaders and actions are given: the services, the site, the nonce and the user, if any. */
    async function routerContext(request: FastifyRequest, nonce: string, user: SessionUser | null, shared: boolean) {
      const site = await services.sites.resolve(undefined);
      const context = new RouterContextProvider();
      const value: RequestContext = {
        services,
        site,
        nonce,
        requestId: request.id,
        clientIp: request.ip,
        user,
        shared,
      };
      context.set(requestContext, value);
      return context;
    }

    /**
     * Renders an expired page's copy again after its stale copy has been sent: as the view's
     * copy (no user's), within a time limit.
     */
    async function refreshCopy(view: PageView, request: FastifyRequest) {
      try {
        const nonce = newNonce();
        const signal = AbortSignal.timeout(REFRESH_TIMEOUT_MS);
        const response = await handle(
          toWebRequest(request, undefined, signal, "GET"),
          await routerContext(request, nonce, null, view === "signed-in"),
        );
        // A fault (the database gone) keeps the stale copy, served until its grace period ends.
        if (response.status >= 500) throw new Error(`the page answered ${response.status}`);
        const page = { status: response.status, headers: pageHeaders(response), body: await response.text(), nonce };
        pageCache.offer(view, request.url, page);
      } catch (err) {
        request.log.warn({ err, url: request.url }, "a page's copy could not be rendered again");
      }
    }

    scope.route({ method: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"], url: "/", handler });
    scope.route({ method: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"], url: "/*", handler });
  });
}

/**
 * A page's headers as sent, and as its copy in the page cache sends them again: with `no-cache`
 * (browsers and shared caches revalidate it) where the route set no `cache-control`.
 */
function pageHeaders(response: Response): [string, string][] {
  const headers = [...response.headers];
  return response.headers.has("cache-control") ? headers : [...headers, ["cache-control", "no-cache"]];
}

/**
 * Which copy of the page a cacheable request gets: without a session cookie, the anonymous
 * page; with one, from a browser that runs the script filling in its personal parts, the
 * copy signed-in visitors share (the copy holds nothing of anyone's; whether the session
 * still signs someone in is then judged from its kept parts, toldPersonalVersion). Without the script, the page is rendered for its user (undefined), or
 * anonymous when the session is forged or ended.
 */
async function viewOf(
  token: string | undefined,
  cookies: Record<string, string | undefined>,
  sessionUser: () => Promise<SessionUser | null>,
): Promise<PageView | undefined> {
  if (!token) return "anonymous";
  if (cookies[SCRIPT_COOKIE]) return "signed-in";
  return (await sessionUser()) ? undefined : "anonymous";
}

/** A GET of an offers search page with a query string: an uncached search, like the API's. */
function isPageSearch(request: FastifyRequest): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  const queryAt = request.url.indexOf("?");
  if (queryAt < 0 || queryAt === request.url.length - 1) return false;
  // Client-side navigations fetch the same loader data as `/_.data` (the home page) or `/{path}.data`.
  const path = request.url
    .slice(0, queryAt)
    .replace(/\/_\.data$/, "/")
    .replace(/\.data$/, "")
    .replace(/(.)\/$/, "$1");
  return OFFER_SEARCH_PAGES.includes(path);
}

/** Parses a posted form once to refuse what no action may see: malformed encodings and unsafe text. */
async function checkForm(body: Buffer, contentType: string) {
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { "content-type": contentType } }).formData();
  } catch {
    throw badRequest("The form could not be read");
  }
  const texts: string[] = [];
  for (const [name, value] of form) texts.push(name, typeof value === "string" ? value : value.name);
  assertSafeText(texts);
}

function toWebRequest(
  request: FastifyRequest,
  body: Buffer | undefined,
  signal: AbortSignal,
  method = request.method,
): Request {
  const url = new URL(request.url, `${request.protocol}://${request.host}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const init: RequestInit = { method, headers, signal };
  if (method !== "GET" && method !== "HEAD" && body) init.body = new Uint8Array(body);
  return new Request(url, init);
}
