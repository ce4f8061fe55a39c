// What every connector does on the wire: one GET with a timeout, retried with
// doubling backoff (and the platform's Retry-After) on 429, 5xx and network
// faults; 401/403 are the operator's to fix and are not retried.
export class PlatformAuthError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PlatformAuthError";
  }
}

/** The platform kept failing (or answered what is not its documented shape). */
export class PlatformError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PlatformError";
  }
}

export type HttpPatience = {
  /** Longest wait for one answer. */
  timeoutMs?: number;
  /** Attempts per request (the first included) on 429, 5xx and network faults. */
  attempts?: number;
  /** First backoff; it doubles each attempt. */
  retryBaseMs?: number;
  /** Longest wait between attempts, whatever Retry-After asks. */
  retryMaxMs?: number;
};

export type PlatformRequest = HttpPatience & {
  /** The platform's name in messages ("Everflow"). */
  platform: string;
  /** What is fetched, in messages ("page 3"). */
  what: string;
  url: URL;
  headers?: Record<string, string>;
  /** What a 401/403 refused: "the API key" unless the connector says otherwise. */
  credential?: string;
  /** Where the operator fixes refused credentials, appended to the 401/403 message. */
  authHint: string;
  fetch?: typeof fetch;
};

const PATIENCE = { timeoutMs: 30_000, attempts: 4, retryBaseMs: 1000, retryMaxMs: 30_000 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Retry-After in milliseconds (seconds or an HTTP date), or undefined. */
function retryAfterMs(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Options given as undefined keep their defaults. */
export function withDefaults<T extends object>(defaults: T, given: Partial<T>): T {
  return { ...defaults, ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) } as T;
}

/** A 2xx answer to a GET, or a PlatformAuthError / PlatformError saying why not. */
export async function platformGet(request: PlatformRequest): Promise<Response> {
  const o = withDefaults({ ...PATIENCE, fetch: globalThis.fetch }, request);
  const { platform, what, url } = request;
  let last = "";
  for (let attempt = 1; attempt <= o.attempts; attempt++) {
    let wait = Math.min(o.retryBaseMs * 2 ** (attempt - 1), o.retryMaxMs);
    try {
      const res = await o.fetch(url, {
        headers: { Accept: "application/json", ...request.headers },
        signal: AbortSignal.timeout(o.timeoutMs),
      });
      if (res.ok) return res;
      await res.body?.cancel();
      if (res.status === 401 || res.status === 403)
        throw new PlatformAuthError(
          `${platform} refused ${request.credential ?? "the API key"} (${res.status}): ${request.authHint}`,
        );
      if (res.status !== 429 && res.status < 500)
        throw new PlatformError(`${platform} answered ${res.status} on ${what} of ${url.origin}${url.pathname}`);
      last = `${platform} answered ${res.status} on ${what}`;
      if (res.status === 429) wait = Math.min(retryAfterMs(res.headers.get("retry-after")) ?? wait, o.retryMaxMs);
    } catch (err) {
      if (err instanceof PlatformAuthError || err instanceof PlatformError) throw err;
      const reason = err instanceof Error && err.name === "TimeoutError" ? "timed out" : (err as Error).message;
      last = `${platform} could not be reached for ${what} (${reason})`;
    }
    if (attempt < o.attempts) await sleep(wait);
  }
  throw new PlatformError(`${last}; gave up after ${o.attempts} attempt${o.attempts === 1 ? "" : "s"}`);
}

/** The answer's JSON, or a PlatformError naming what was fetched. */
export async function jsonOf(res: Response, platform: string, what: string): Promise<unknown> {
  try {
    return await res.json();
  } catch {
    throw new PlatformError(`${platform} answered ${what} with something that is not JSON`);
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
