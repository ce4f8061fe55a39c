// When daily and weekly digests are due (core/alerts/schedule.ts): slot boundaries
// at DIGEST_HOUR_UTC, Mondays for weekly, one catch-up after downtime.
import { describe, expect, it } from "vitest";
import { DIGEST_HOUR_UTC, isDue, slotStart } from "#core/alerts/schedule.ts";

const at = (iso: string) => new Date(iso);
const hour = String(DIGEST_HOUR_UTC).padStart(2, "0");

describe("alert slots", () => {
  it("starts a daily slot at the digest hour, UTC", () => {
    expect(slotStart("daily", at(`2026-03-04T${hour}:00:00Z`)).toISOString()).toBe(`2026-03-04T${hour}:00:00.000Z`);
    expect(slotStart("daily", at("2026-03-04T23:59:59Z")).toISOString()).toBe(`2026-03-04T${hour}:00:00.000Z`);
    // Before the hour, the slot is yesterday's.
    expect(slotStart("daily", at("2026-03-04T00:30:00Z")).toISOString()).toBe(`2026-03-03T${hour}:00:00.000Z`);
  });

  it("starts a weekly slot on Monday at the digest hour", () => {
    // 2026-03-02 is a Monday.
    expect(slotStart("weekly", at("2026-03-05T12:00:00Z")).toISOString()).toBe(`2026-03-02T${hour}:00:00.000Z`);
    expect(slotStart("weekly", at(`2026-03-02T${hour}:00:00Z`)).toISOString()).toBe(`2026-03-02T${hour}:00:00.000Z`);
    // Monday before the hour still belongs to last week's slot.
    expect(slotStart("weekly", at("2026-03-02T00:10:00Z")).toISOString()).toBe(`2026-02-23T${hour}:00:00.000Z`);
    expect(slotStart("weekly", at("2026-03-08T23:59:00Z")).toISOString()).toBe(`2026-03-02T${hour}:00:00.000Z`);
  });

  it("is due once per slot; instant always; none never", () => {
    const lastRun = at(`2026-03-02T${hour}:05:00Z`);
    const justBefore = new Date(Date.parse(`2026-03-03T${hour}:00:00Z`) - 1000);
    expect(isDue("daily", lastRun, justBefore)).toBe(false);
    expect(isDue("daily", lastRun, at(`2026-03-03T${hour}:00:00Z`))).toBe(true);
    expect(isDue("weekly", lastRun, at("2026-03-08T23:00:00Z"))).toBe(false);
    expect(isDue("weekly", lastRun, at(`2026-03-09T${hour}:00:00Z`))).toBe(true);
    // A job down for three days catches up with one digest, then waits for the next slot.
    const after = at(`2026-03-05T${hour}:30:00Z`);
    expect(isDue("daily", lastRun, after)).toBe(true);
    expect(isDue("daily", after, at("2026-03-05T23:00:00Z"))).toBe(false);
    expect(isDue("instant", after, after)).toBe(true);
    expect(isDue("none", lastRun, after)).toBe(false);
  });
});
