// A signed-in page's personal parts (docs/decisions/0029). The page itself is the copy
// every signed-in visitor shares; the browser then asks once for what is only this
// user's: the name in the header and the stars of the offers and networks on screen.
import { z } from "zod";

/** Set by the page once its script runs: only such a browser gets the shared signed-in copy. */
export const SCRIPT_COOKIE = "oa_js";

/**
 * The version of a browser's personal parts, readable by the page's script (docs/decisions/0047):
 * set by each signed-in page to the version its session's parts are at, and by each of the
 * browser's writes to a new random one, so that no copy read before the write is its answer.
 */
export const PERSONAL_VERSION_COOKIE = "oa_pv";

/** Clears the personal version cookie (the session ended). */
export const CLEARED_PERSONAL_VERSION = `${PERSONAL_VERSION_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;

/**
 * The `Clear-Site-Data` of an answer that ends a session (a logout, or a page for a session that
 * signs nobody in): the browser empties its HTTP cache of this site, so the personal answer it kept
 * under the session's version (docs/decisions/0047, up to a day) does not outlive the session on a
 * shared computer. Browsers honour it over HTTPS and on localhost.
 */
export const SESSION_ENDED_CLEAR_SITE_DATA = '"cache"';

/** Ids one request may ask about: a page shows at most a hundred or so. */
export const PERSONAL_IDS_LIMIT = 200;

/** Ids (1 to 15 digits, no leading zero) separated by commas. */
const ID_LIST = /^[1-9][0-9]{0,14}(?:,[1-9][0-9]{0,14})*$/;

const idList = (field: string) =>
  z
    .string()
    .max(PERSONAL_IDS_LIMIT * 20, `${field} lists too many ids`)
    .optional()
    .transform((text, ctx) => {
      if (!text) return [];
      // One pass over the whole list (every signed-in page view sends one).
      if (!ID_LIST.test(text)) {
        ctx.addIssue({ code: "custom", message: `${field} must be a comma-separated list of ids` });
        return z.NEVER;
      }
      const parts = text.split(",");
      if (parts.length > PERSONAL_IDS_LIMIT) {
        ctx.addIssue({ code: "custom", message: `${field} lists more than ${PERSONAL_IDS_LIMIT} ids` });
        return z.NEVER;
      }
      return [...new Set(parts.map(Number))];
    });

/** A personal version as the server sets it (the `oa_pv` cookie): a digest, or a write's random mark. */
const VERSION = /^[\w-]{1,64}$/;

/**
 * `GET /api/account/personal?offerIds=1,2&networkIds=3`: the follows among those ids; or
 * `GET /api/account/personal?v={version}`: every follow, an answer the browser keeps while its
 * version is the browser's (docs/decisions/0047).
 */
export const personalQuery = z.object({
  offerIds: idList("offerIds"),
  networkIds: idList("networkIds"),
  v: z.string().regex(VERSION, "v must be a personal version").optional(),
});

/** How long a browser keeps the answer to a version (its address changes with every change to it). */
export const PERSONAL_VERSION_MAX_AGE_SECONDS = 24 * 3600;

export type PersonalUser = { name: string; email: string; scope: string[] };

/** The answer: who is signed in, and the followed ids among those asked (id → watchlist item id). */
export type PersonalParts = {
  user: PersonalUser;
  watch: { offers: Record<number, number>; networks: Record<number, number> };
};
