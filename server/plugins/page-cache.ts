// Micro-caching of public pages: a GET of the same address within a few seconds
// reuses the rendered page instead of rendering it again. Each address has two
// copies, one per *view*: the anonymous page, and the page every signed-in visitor
// shares, rendered with no user at all (docs/decisions/0029). Only answers that are
// the same for every visitor of the view qualify (no cookies in but the session and
// the script mark, none out, status 200). A copy is the same bytes for everyone who
// gets it: its inline scripts are allowed by their hashes, not by a nonce (a nonce
// everyone can read allows anyone's script), so it is encoded and compressed once,
// not on every answer (docs/decisions/0042). When a page expires, requests
// keep getting the previous copy for a short grace period while the first of them has
// it rendered again behind its answer, so expiry makes no visitor wait. With a
// shared store (REDIS_URL), a page one instance rendered is reused by all.
import { promisify } from "node:util";
import zlib from "node:zlib";
import { LRUCache } from "lru-cache";
import type { SharedStore } from "#core/cache/cache.ts";
import { AUTH_COOKIE } from "#core/auth/sessions.ts";
import { PERSONAL_VERSION_COOKIE, SCRIPT_COOKIE } from "#contracts/personal.ts";
import { scriptHashSource } from "./external/helmet.ts";

/** A rendered answer, as offered: `nonce` is the one its scripts were rendered with. */
export type CachedPage = { status: number; headers: [string, string][]; body: string; nonce: string };

/** The encodings a copy is kept in besides its plain bytes, in the order they are preferred. */
export const COPY_ENCODINGS = ["br", "gzip"] as const;
export type CopyEncoding = (typeof COPY_ENCODINGS)[number];

/**
 * A copy to answer with: its bytes, each compressed encoding once it is ready, and the hash
 * sources its inline scripts need. `stale`: past its lifetime (in its grace period);
 * `refresh`: this caller is to render the page again behind the answer.
 */
export type PageHit = Pick<CachedPage, "status" | "headers"> & {
  body: Buffer;
  encoded: Partial<Record<CopyEncoding, Buffer>>;
  scriptHashes: string[];
  stale: boolean;
  refresh: boolean;
};
/**
 * `refreshedAt`: when a caller was last asked to render the expired page again (0: never).
 * `immutable`: the answer says it never changes (see isImmutable), so it never expires.
 */
type Entry = Omit<PageHit, "stale" | "refresh"> & {
  at: number;
  refreshedAt: number;
  generation: number;
  immutable: boolean;
};

/**
 * Whether an answer says it never changes at its address: React Router's route manifest for a
 * page's links (`/__manifest?paths=…&version=<build>`), asked for by every first visit of a page.
 * Rendering it again each page lifetime only competes with the visitor's browser for the CPU.
 */
const isImmutable = (headers: [string, string][]) =>
  headers.some(([name, value]) => name === "cache-control" && /\bimmutable\b/.test(value));
/** How long a shared store keeps an answer that never changes (a new build asks at new addresses). */
const IMMUTABLE_SHARED_MS = 24 * 60 * 60_000;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
/** Once per copy, on zlib's threads: brotli's quality 6 is 8% smaller than the 4 answers get on the fly, at ~1.7 ms for 78 kB. */
const compressors: Record<CopyEncoding, (body: Buffer) => Promise<Buffer>> = {
  br: (body) =>
    brotli(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 6,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  gzip: (body) => gzip(body, { level: 6 }),
};

/**
 * A rendered page without its nonce (attributes gone, the root loader's copy emptied), and the hash
 * sources of the scripts that carried it, as they read without it. A script that did not carry
 * the nonce (one that got into the page some other way) gets no hash: it stays blocked, as under
 * the nonce. Data blocks that carry it are hashed too: PageScripts runs one later as a module.
 */
export function withoutNonce(body: string, nonce: string): { html: string; scriptHashes: string[] } {
  if (!nonce) return { html: body, scriptHashes: [] };
  const hashes = new Set<string>();
  for (const [, attributes, text] of body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (attributes.includes(` nonce="${nonce}"`) && !/\bsrc=/i.test(attributes))
      hashes.add(scriptHashSource(text.replaceAll(nonce, "")));
  }
  return { html: body.replaceAll(` nonce="${nonce}"`, "").replaceAll(nonce, ""), scriptHashes: [...hashes] };
}

/** The copy of a rendered answer; compressed on zlib's threads, the encodings join it when ready. */
function entryOf(page: CachedPage, at: number, generation: number): Entry {
  const { html, scriptHashes } = withoutNonce(page.body, page.nonce);
  const body = Buffer.from(html);
  const entry: Entry = {
    status: page.status,
    headers: page.headers,
    body,
    encoded: {},
    scriptHashes,
    at,
    refreshedAt: 0,
    generation,
    immutable: isImmutable(page.headers),
  };
  for (const encoding of COPY_ENCODINGS) {
    compressors[encoding](body).then(
      (compressed) => (entry.encoded[encoding] = compressed),
      () => {}, // answered uncompressed, or compressed on the fly, as before it was ready
    );
  }
  return entry;
}

const MAX_BODY = 1024 * 1024;

/** Which copy of a page: the anonymous one, or the one signed-in visitors share. */
export type PageView = "anonymous" | "signed-in";

/** The cookies a page may be served from the cache with: what the view is judged by, nothing a page reads. */
const VIEW_COOKIES = new Set([AUTH_COOKIE, SCRIPT_COOKIE, PERSONAL_VERSION_COOKIE]);

/** The copy's key: an address starts with "/", so the two views never meet. */
const keyOf = (view: PageView, url: string) => (view === "anonymous" ? url : `${view} ${url}`);

/** Whether a rendered answer is the same for everyone who gets its view. */
export function sameForEveryone(page: Pick<CachedPage, "status" | "headers" | "body">): boolean {
  const cacheControl = page.headers.find(([name]) => name === "cache-control")?.[1] ?? "";
  const personal = page.headers.some(([name]) => name === "set-cookie") || /private|no-store/.test(cacheControl);
  return page.status === 200 && !personal && page.body.length <= MAX_BODY;
}

/**
 * `generation`: bumped when the catalogue changes (a console edit, on any instance);
 * copies made before are not reused, so a retired offer's page is not served from here.
 */
export function createPageCache(options: {
  ttlMs: number;
  maxEntries: number;
  generation?: () => number;
  shared?: SharedStore;
}) {
  const { shared } = options;
  const generation = options.generation ?? (() => 0);
  const graceMs = options.ttlMs * 2;
  // lru-cache bounds the count and drops a copy too old even for the grace period (on the
  // clock that dates the copies); whether a copy is stale is judged here.
  const pages = new LRUCache<string, Entry>({
    max: Math.max(1, options.maxEntries),
    ttl: options.ttlMs + graceMs,
    perf: Date,
  });
  return {
    /** Whether this request may be answered from, and stored in, the cache (its view is the caller's to judge). */
    eligible(method: string, headers: Record<string, unknown>, cookies: Record<string, unknown>): boolean {
      return (
        options.ttlMs > 0 &&
        (method === "GET" || method === "HEAD") &&
        !headers.authorization &&
        Object.keys(cookies).every((name) => VIEW_COOKIES.has(name))
      );
    },
    /** A copy to answer with, or nothing: then the caller renders. */
    async get(view: PageView, url: string): Promise<PageHit | undefined> {
      const key = keyOf(view, url);
      let entry = pages.get(key);
      if (entry && entry.generation !== generation()) {
        pages.delete(key);
        entry = undefined;
      }
      if (!entry && shared) entry = await fromShared(key);
      if (!entry) return undefined;
      const now = Date.now();
      // One caller per expiry renders the page again; another is asked if that render has not
      // come back within a page's lifetime (it failed, or its answer was not the same for everyone).
      const stale = !entry.immutable && now - entry.at >= options.ttlMs;
      const refresh = stale && now - entry.refreshedAt >= options.ttlMs;
      if (refresh) entry.refreshedAt = now;
      const { status, headers, body, encoded, scriptHashes } = entry;
      return { status, headers, body, encoded, scriptHashes, stale, refresh };
    },
    /** Stores a rendered answer if it is the same for everyone who gets its view. */
    offer(view: PageView, url: string, page: CachedPage) {
      const key = keyOf(view, url);
      if (!sameForEveryone(page)) {
        pages.delete(key);
        return;
      }
      const entry = entryOf(page, Date.now(), generation());
      // An answer that never changes is kept until the cache needs its room (lru-cache: ttl 0).
      pages.set(key, entry, entry.immutable ? { ttl: 0 } : undefined);
      shared?.set(`page:${generation()}:${key}`, page, entry.immutable ? IMMUTABLE_SHARED_MS : options.ttlMs + graceMs);
    },
  };

  /** Another instance's copy of the page, kept here too (it ages from when it was rendered). */
  async function fromShared(key: string): Promise<Entry | undefined> {
    const current = generation();
    const copy = await shared!.get(`page:${current}:${key}`);
    if (!copy) return undefined;
    const entry = entryOf(copy.value as CachedPage, copy.storedAt, current);
    const age = Date.now() - copy.storedAt;
    if (entry.immutable) pages.set(key, entry, { ttl: 0 });
    else if (age < options.ttlMs + graceMs) pages.set(key, entry, { ttl: options.ttlMs + graceMs - age });
    else return undefined;
    return entry;
  }
}
