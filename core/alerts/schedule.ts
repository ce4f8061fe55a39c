// When an alert is due. Instant alerts run at every run of the job; a daily digest
// once per UTC day, at DIGEST_HOUR_UTC; a weekly one on Mondays at that hour. An
// alert is due when it last ran before the start of the current slot, so a job
// that was down catches up once (one digest), never once per missed slot.
import type { AlertFrequency } from "#contracts/saved-searches.ts";

/** Digests go out in the European morning, the Americas' night: read with the first coffee in the EU. */
export const DIGEST_HOUR_UTC = 7;
const DAY_MS = 86_400_000;

/** The start of the slot `now` falls in (for instant alerts: `now` itself). */
export function slotStart(frequency: Exclude<AlertFrequency, "none">, now: Date): Date {
  if (frequency === "instant") return now;
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), DIGEST_HOUR_UTC);
  const daily = today <= now.getTime() ? today : today - DAY_MS;
  if (frequency === "daily") return new Date(daily);
  // getUTCDay: Sunday 0 … Saturday 6; days back to the Monday of the daily slot.
  const back = (new Date(daily).getUTCDay() + 6) % 7;
  return new Date(daily - back * DAY_MS);
}

/** Whether an alert that last ran at `lastRun` is due at `now`. */
export function isDue(frequency: AlertFrequency, lastRun: Date, now: Date): boolean {
  if (frequency === "none") return false;
  if (frequency === "instant") return true;
  return lastRun.getTime() < slotStart(frequency, now).getTime();
}
