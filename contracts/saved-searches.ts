// Saved searches and alert settings (issue #14): what the account API takes and answers.
import { z } from "zod";
import { offerSearchPayload, type OfferSearch } from "./offers.ts";

export const ALERT_FREQUENCIES = ["none", "instant", "daily", "weekly"] as const;
export type AlertFrequency = (typeof ALERT_FREQUENCIES)[number];
export const ALERT_FREQUENCY_LABELS: Record<AlertFrequency, string> = {
  none: "No e-mail",
  instant: "Instant",
  daily: "Daily digest",
  weekly: "Weekly digest",
};
/** Saved searches one account may keep. */
export const SAVED_SEARCHES_MAX = 50;
export const SAVED_SEARCH_NAME_MAX = 100;

const name = z
  .string({ error: "name must be text" })
  .trim()
  .min(1, "name must not be empty")
  .max(SAVED_SEARCH_NAME_MAX, `name must be at most ${SAVED_SEARCH_NAME_MAX} characters long`);
const alertFrequency = z.enum(ALERT_FREQUENCIES, {
  error: `alertFrequency must be one of ${ALERT_FREQUENCIES.join(", ")}`,
});

/** POST: the search payload of POST /api/offers/search plus a name and a frequency (default none). */
export const savedSearchInput = offerSearchPayload.extend({
  name,
  alertFrequency: alertFrequency.default("none"),
});

/** PATCH: a new name, a new frequency, or both. */
export const savedSearchPatch = z
  .object({ name: name.optional(), alertFrequency: alertFrequency.optional() })
  .refine((p) => p.name !== undefined || p.alertFrequency !== undefined, "Give a name or an alertFrequency");

export const watchlistAlertInput = z.object({ alertFrequency });

/** What a saved search keeps of the search: the filters, never the page it was on. */
export type SavedSearchPayload = Omit<OfferSearch, "page">;

export type SavedSearch = {
  id: number;
  name: string;
  search: SavedSearchPayload;
  alertFrequency: AlertFrequency;
  createdAt: string;
};
