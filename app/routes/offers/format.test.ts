import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dateText } from "./format.ts";

describe("dateText", () => {
  // The page's dates are written without Intl, which a browser loads on first use (contracts/numbers.ts).
  it("writes the day as en-US's short date in UTC", () => {
    fc.assert(
      fc.property(fc.date({ min: new Date("1970-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }), (d) => {
        const expected = d.toLocaleDateString("en-US", {
          year: "numeric",
          month: "short",
          day: "numeric",
          timeZone: "UTC",
        });
        expect(dateText(d.toISOString())).toBe(expected);
      }),
      { numRuns: 5_000 },
    );
  });
});
