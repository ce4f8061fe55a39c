// The console's queue of platform categories (issue #13, /api/admin/platform-categories,
// docs/api.md): every category name a platform sent, waiting for an operator to
// map it to one of the directory's verticals instead of being guessed. A mapping
// applies at each source's next sync; the rules live in core/supply/categories.ts.
import { z } from "zod";
import { adminPage, adminSort, type AdminList } from "./admin.ts";
import type { AdminVertical } from "./catalogue.ts";
import { SOURCE_PLATFORMS } from "./supply.ts";
import { integerField, requiredText } from "./validation.ts";

/** Which part of the queue a list shows; waiting (unmapped) ones by default. */
export const PLATFORM_CATEGORY_VIEWS = ["unmapped", "mapped", "all"] as const;

/** Longest vertical name, as the verticals editor allows. */
export const VERTICAL_NAME_MAX = 100;

const INT4_MAX = 2_147_483_647;
const blankToUndefined = (v: unknown) => (v === "" ? undefined : v);

export const platformCategoryFilter = z.object({
  page: adminPage,
  // Newest first by default: what the last syncs brought.
  ...adminSort(["firstSeen", "name", "platform", "vertical"], "firstSeen"),
  view: z.preprocess(
    (v) => (v === undefined || v === "" ? "unmapped" : v),
    z.enum(PLATFORM_CATEGORY_VIEWS, { error: `view must be one of ${PLATFORM_CATEGORY_VIEWS.join(", ")}` }),
  ),
  platform: z.preprocess(
    blankToUndefined,
    z.enum(SOURCE_PLATFORMS, { error: `platform must be one of ${SOURCE_PLATFORMS.join(", ")}` }).optional(),
  ),
  search: z.preprocess(
    blankToUndefined,
    z.string({ error: "search must be text" }).trim().max(100, "search must be at most 100 characters long").optional(),
  ),
});

/** `{ categoryId }` maps to that vertical; `{ categoryId: null }` takes the mapping away. */
export const platformCategoryMapping = z.object({
  categoryId: z.preprocess(
    blankToUndefined,
    z.union(
      [z.null(), integerField("categoryId", 1).refine((n) => n <= INT4_MAX, "categoryId must be the id of a vertical")],
      {
        error: (issue) =>
          issue.input === undefined
            ? "categoryId is required: the id of a vertical, or null to unmap"
            : "categoryId must be the id of a vertical, or null to unmap",
      },
    ),
  ),
});

/** A new vertical made from a platform category's name (typed again, so it can be tidied first). */
export const verticalFromCategory = z.object({
  name: requiredText("name", VERTICAL_NAME_MAX),
});

/** A platform category as the console lists it. */
export type PlatformCategory = {
  /** Its key in the console's addresses: the platform and the name (base64url), since the table keys on both. */
  id: string;
  platform: string;
  name: string;
  /** The vertical its offers get, or null while it waits in the queue. */
  vertical: { id: number; name: string } | null;
  firstSeen: string;
  /** Enabled sources of its platform: the ones a mapping change sends to sync again. */
  enabledSources: number;
};
export type PlatformCategoryPage = AdminList<PlatformCategory>;

/**
 * What a mapping change answers: the category as it is now, whether it changed (a
 * mapping to the vertical it already had changes nothing) and how many sources were made due.
 */
export type PlatformCategoryChange = { category: PlatformCategory; changed: boolean; sourcesDue: number };
export type VerticalFromCategory = PlatformCategoryChange & { vertical: AdminVertical };
