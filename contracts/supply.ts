// Offer sources (issue #13, /api/admin/sources, docs/api.md): where a network's
// offers come from, how often they are synced, and each source's last run.
// A source's credentials never cross to a client: it says only whether it has some.
import { z } from "zod";
import { adminPage, adminSort, type AdminList } from "./admin.ts";
import { integerField, integerInput, messages } from "./validation.ts";

export const SOURCE_PLATFORMS = ["everflow", "tune", "cake", "affise", "feed"] as const;
export type SourcePlatform = (typeof SOURCE_PLATFORMS)[number];
export const SOURCE_STATES = ["new", "ok", "failing"] as const;
export type SourceState = (typeof SOURCE_STATES)[number];
export const SYNC_RUN_STATUSES = ["running", "succeeded", "failed"] as const;
export type SyncRunStatus = (typeof SYNC_RUN_STATUSES)[number];

/** How often a source may be synced, in minutes (every 5 minutes to once a week). */
export const EVERY_MINUTES = { min: 5, max: 10080, default: 360 } as const;
/** After how many successful runs without an offer it is retired. */
export const RETIRE_AFTER_RUNS = { min: 1, max: 100, default: 3 } as const;
/** Longest endpoint and API key accepted. */
export const ENDPOINT_MAX = 2000;
export const API_KEY_MAX = 500;
/** A source's non-secret settings (an affiliate id, a feed's column mapping), as JSON. */
export const SETTINGS_MAX_CHARS = 10_000;

const blankToUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);

const boundedInteger = (field: string, bounds: { min: number; max: number }) =>
  z.preprocess(
    integerInput,
    z
      .number({ error: (i) => (i.input === undefined ? messages.required(field) : messages.integer(field)) })
      .int(messages.integer(field))
      .refine((n) => n >= bounds.min && n <= bounds.max, `${field} must be between ${bounds.min} and ${bounds.max}`),
  );

const platformField = z.enum(SOURCE_PLATFORMS, {
  error: `platform must be one of ${SOURCE_PLATFORMS.join(", ")}`,
});

/** The endpoint as typed; whether it is an address the source may read is decided in core/supply/sources.ts. */
const endpointField = z
  .string({ error: messages.required("endpoint") })
  .trim()
  .min(1, messages.required("endpoint"))
  .max(ENDPOINT_MAX, `endpoint must be at most ${ENDPOINT_MAX} characters long`);

const apiKeyField = z
  .string({ error: "apiKey must be text" })
  .trim()
  .max(API_KEY_MAX, `apiKey must be at most ${API_KEY_MAX} characters long`)
  .refine((v) => !/[\r\n]/.test(v), "apiKey must be one line");

const settingsField = z
  .record(z.string(), z.unknown(), { error: "settings must be an object" })
  .refine(
    (v) => JSON.stringify(v).length <= SETTINGS_MAX_CHARS,
    `settings must be at most ${SETTINGS_MAX_CHARS} characters of JSON`,
  );

export const sourceInput = z.object({
  networkId: z.preprocess(
    blankToUndefined,
    integerField("networkId", 1).refine(Number.isSafeInteger, "networkId must be the id of a network"),
  ),
  platform: platformField,
  endpoint: endpointField,
  /** Empty: no credentials (a public feed). */
  apiKey: z.preprocess(blankToUndefined, apiKeyField.optional()).transform((v) => v || undefined),
  everyMinutes: z.preprocess(blankToUndefined, boundedInteger("everyMinutes", EVERY_MINUTES).optional()),
  retireAfterRuns: z.preprocess(blankToUndefined, boundedInteger("retireAfterRuns", RETIRE_AFTER_RUNS).optional()),
  settings: z.preprocess(blankToUndefined, settingsField.optional()),
});

const flag = (field: string) =>
  z.preprocess(
    (v) => (v === "true" || v === "on" ? true : v === "false" ? false : v),
    z.boolean({ error: `${field} must be true or false` }).optional(),
  );

/**
 * An edit with the `updatedAt` the editor saw (a stale one answers 409). Fields
 * left out keep their value; `apiKey` left out or empty keeps the stored key, `null` removes it.
 */
export const sourceUpdate = z.object({
  updatedAt: z.string({ error: "updatedAt is required" }).max(40, "updatedAt must be a date"),
  enabled: flag("enabled"),
  everyMinutes: z.preprocess(blankToUndefined, boundedInteger("everyMinutes", EVERY_MINUTES).optional()),
  retireAfterRuns: z.preprocess(blankToUndefined, boundedInteger("retireAfterRuns", RETIRE_AFTER_RUNS).optional()),
  endpoint: z.preprocess(blankToUndefined, endpointField.optional()),
  apiKey: z.union([z.null(), z.preprocess((v) => (v === "" ? undefined : v), apiKeyField.optional())]),
  /** Replaces the settings whole (a feed's column mapping, docs/supply/feeds.md). */
  settings: settingsField.optional(),
});

export const sourceFilter = z.object({
  page: adminPage,
  ...adminSort(["createdAt", "network", "platform", "nextRunAt"], "createdAt"),
  networkId: z.preprocess(
    blankToUndefined,
    integerField("networkId", 1).refine(Number.isSafeInteger, "networkId must be the id of a network").optional(),
  ),
});

/** A source's latest sync run and its counts. */
export type SyncRun = {
  id: number;
  status: SyncRunStatus;
  startedAt: string;
  finishedAt: string | null;
  seen: number;
  new: number;
  changed: number;
  unchanged: number;
  retired: number;
  skipped: number;
  error: string | null;
};

/** A source as the console and the shell see it: never its credentials, only whether it has some. */
export type OfferSource = {
  id: number;
  networkId: number;
  networkName: string;
  platform: SourcePlatform;
  endpoint: string;
  hasCredentials: boolean;
  settings: Record<string, unknown>;
  everyMinutes: number;
  retireAfterRuns: number;
  enabled: boolean;
  state: SourceState;
  lastError: string | null;
  nextRunAt: string;
  createdAt: string;
  updatedAt: string;
  lastRun: SyncRun | null;
};
export type OfferSourcePage = AdminList<OfferSource>;
