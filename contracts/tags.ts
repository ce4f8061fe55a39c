// Third-party tags per site (docs/product.md §1, §9; docs/decisions/0014): the ad
// server's slots (Google Publisher Tag), the page analytics id (Google Analytics 4)
// and the social pixel (Meta Pixel); the hosts each one needs, for the
// Content-Security-Policy and the script loader alike.
import { z } from "zod";
import type { AdSize } from "./ads.ts";

/** Every slot size an ad unit can be given for (docs/product.md §9). */
export const TAG_SLOT_SIZES = ["728x90", "270x70", "250x250", "125x125", "370x165"] as const satisfies AdSize[];

/** A site's tag settings as the console edits them; `updatedAt` is null until first saved. */
export type SiteTags = {
  analyticsId: string | null;
  pixelId: string | null;
  gptNetworkCode: string | null;
  /** Ad unit code (the path after the network code) per slot size; a size left out keeps house ads. */
  gptSlots: Partial<Record<AdSize, string>>;
  /** Ask visitors before any tag loads; false: tags load unless the visitor said no. */
  consentRequired: boolean;
  updatedAt: string | null;
};

/** What the pages get: only configured tags, full ad unit paths; null when nothing is configured. */
export type PageTags = {
  analyticsId: string | null;
  pixelId: string | null;
  /** The full ad unit path (`/{network code}/{ad unit}`) per configured slot size. */
  gptSlots: Partial<Record<AdSize, string>>;
  consentRequired: boolean;
};

const GA4_ID = /^G-[A-Z0-9]{6,12}$/;
const PIXEL_ID = /^[0-9]{10,20}$/;
const NETWORK_CODE = /^[0-9]{1,20}$/;
// Ad Manager's ad unit codes: letters, digits and _ - . * ! : ( ), levels separated by "/".
const AD_UNIT = /^[A-Za-z0-9_.\-*!:()]+(\/[A-Za-z0-9_.\-*!:()]+)*$/;
const AD_UNIT_MAX = 200;

/** Empty or absent → null; text is trimmed; anything else fails as "must be text". */
const optionalId = (field: string, pattern: RegExp, message: string, normalise = (v: string) => v) =>
  z.preprocess(
    (v) => (typeof v === "string" ? normalise(v.trim()) || null : (v ?? null)),
    z.union([z.string().max(40, message).regex(pattern, message), z.null()], { error: `${field} must be text` }),
  );

/** Each slot's ad unit trimmed, without leading or trailing "/"; an empty one is left out. */
const tidySlots = (v: unknown) =>
  v && typeof v === "object" && !Array.isArray(v)
    ? Object.fromEntries(
        Object.entries(v)
          .map(([size, unit]) => [size, typeof unit === "string" ? unit.trim().replace(/^\/+|\/+$/g, "") : unit])
          .filter(([, unit]) => unit !== "" && unit !== null && unit !== undefined),
      )
    : (v ?? {});

const slots = z.preprocess(
  tidySlots,
  z.strictObject(
    Object.fromEntries(
      TAG_SLOT_SIZES.map((size) => [
        size,
        z
          .string({ error: `Ad unit for ${size} must be text` })
          .max(AD_UNIT_MAX, `Ad unit for ${size} must be at most ${AD_UNIT_MAX} characters long`)
          .regex(AD_UNIT, `Ad unit for ${size} must be letters, digits and _ - . * ! : ( ), in levels separated by /`)
          .optional(),
      ]),
    ) as Record<AdSize, z.ZodOptional<z.ZodString>>,
    {
      error: (issue) =>
        issue.code === "unrecognized_keys"
          ? `gptSlots takes the slot sizes ${TAG_SLOT_SIZES.join(", ")} only`
          : "gptSlots must be an object of ad units by slot size",
    },
  ),
);

/** A save of the settings, with the `updatedAt` the editor saw (null before the first save; a stale one answers 409). */
export const siteTagsInput = z
  .object({
    updatedAt: z.union([z.string().max(40, "updatedAt must be a date"), z.null()], {
      error: "updatedAt is required (null before the first save)",
    }),
    analyticsId: optionalId(
      "analyticsId",
      GA4_ID,
      "Analytics id must be a Google Analytics 4 measurement id such as G-ABC123DEF4",
      (v) => v.toUpperCase(),
    ),
    pixelId: optionalId("pixelId", PIXEL_ID, "Pixel id must be the Meta Pixel's number (10 to 20 digits)"),
    gptNetworkCode: optionalId(
      "gptNetworkCode",
      NETWORK_CODE,
      "Network code must be the Ad Manager network code (digits only)",
    ),
    gptSlots: slots,
    consentRequired: z.boolean({ error: "consentRequired must be true or false" }).default(true),
  })
  .superRefine((tags, ctx) => {
    const units = Object.values(tags.gptSlots).filter(Boolean);
    if (units.length > 0 && !tags.gptNetworkCode)
      ctx.addIssue({
        code: "custom",
        path: ["gptNetworkCode"],
        message: "Give the network code the ad units belong to",
      });
    if (units.length === 0 && tags.gptNetworkCode)
      ctx.addIssue({
        code: "custom",
        path: ["gptNetworkCode"],
        message: "Give an ad unit for at least one slot size, or leave the network code empty",
      });
  });

/** The console (/admin) never runs third-party code: staff sessions stay out of the vendors' reach. */
export const isConsolePath = (pathname: string) => pathname === "/admin" || pathname.startsWith("/admin/");

/** Whether any tag is configured: only then is a visitor ever asked or a third-party host allowed. */
export const hasTags = (tags: Pick<PageTags, "analyticsId" | "pixelId" | "gptSlots">) =>
  Boolean(tags.analyticsId || tags.pixelId || Object.keys(tags.gptSlots).length);

/** The scripts each tag loads (nothing else is ever loaded from these hosts by the page itself). */
export const TAG_SCRIPTS = {
  analytics: (id: string) => `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(id)}`,
  pixel: "https://connect.facebook.net/en_US/fbevents.js",
  gpt: "https://securepubads.g.doubleclick.net/tag/js/gpt.js",
} as const;

type Sources = { script: string[]; connect: string[]; frame: string[] };

/**
 * The hosts each tag reaches, by CSP directive, from each vendor's published
 * list (images are already allowed from any https address). GPT renders
 * creatives in SafeFrames (cross-origin iframes), so they never run under our policy.
 */
export const TAG_HOSTS: Record<"analytics" | "pixel" | "gpt", Sources> = {
  analytics: {
    script: ["https://www.googletagmanager.com"],
    connect: ["https://www.googletagmanager.com", "https://*.google-analytics.com", "https://*.analytics.google.com"],
    frame: [],
  },
  pixel: {
    script: ["https://connect.facebook.net"],
    connect: ["https://connect.facebook.net", "https://www.facebook.com"],
    frame: [],
  },
  gpt: {
    script: ["https://securepubads.g.doubleclick.net"],
    connect: ["https://securepubads.g.doubleclick.net", "https://pagead2.googlesyndication.com"],
    frame: [
      "https://securepubads.g.doubleclick.net",
      "https://tpc.googlesyndication.com",
      "https://*.safeframe.googlesyndication.com",
      "https://googleads.g.doubleclick.net",
    ],
  },
};

/** The hosts a site's configured tags need, per CSP directive; all empty without tags. */
export function tagSources(tags: PageTags | null): Sources {
  const kinds = tags
    ? ([
        tags.analyticsId && "analytics",
        tags.pixelId && "pixel",
        Object.keys(tags.gptSlots).length > 0 && "gpt",
      ].filter(Boolean) as (keyof typeof TAG_HOSTS)[])
    : [];
  const union = (pick: (s: Sources) => string[]) => [...new Set(kinds.flatMap((k) => pick(TAG_HOSTS[k])))];
  return { script: union((s) => s.script), connect: union((s) => s.connect), frame: union((s) => s.frame) };
}
