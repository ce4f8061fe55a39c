// A signed-in page's personal parts (docs/decisions/0029). The page itself is the copy
// every signed-in visitor shares; the browser then asks once for what is only this
// user's: the name in the header and the stars of the offers and networks on screen.
import { z } from "zod";

/** Set by the page once its script runs: only such a browser gets the shared signed-in copy. */
export const SCRIPT_COOKIE = "oa_js";

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

/** `GET /api/account/personal?offerIds=1,2&networkIds=3` */
export const personalQuery = z.object({ offerIds: idList("offerIds"), networkIds: idList("networkIds") });

export type PersonalUser = { name: string; email: string; scope: string[] };

/** The answer: who is signed in, and the followed ids among those asked (id → watchlist item id). */
export type PersonalParts = {
  user: PersonalUser;
  watch: { offers: Record<number, number>; networks: Record<number, number> };
};
