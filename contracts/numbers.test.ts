import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatNumber } from "./numbers.ts";

const intl = (value: number, digits: number) =>
  new Intl.NumberFormat("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);

describe("formatNumber", () => {
  it("writes what Intl.NumberFormat writes for en-US, for any double and 0–3 decimals", () => {
    fc.assert(
      fc.property(fc.double(), fc.integer({ min: 0, max: 3 }), (value, digits) => {
        expect(formatNumber(value, digits)).toBe(intl(value, digits));
      }),
      { numRuns: 20_000 },
    );
  });

  it("agrees on the cases rounding gets wrong most often", () => {
    const values = [0, -0, 0.5, -0.5, 1.005, 2.675, 1234.5, 999.995, 999_999.5, 1e15 + 0.3, 123_456_789.125, -0.001];
    for (const value of values)
      for (const digits of [0, 1, 2, 3])
        expect(formatNumber(value, digits), `${value}, ${digits}`).toBe(intl(value, digits));
    // Amounts in cents, the payouts' own scale.
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 12 }), fc.integer({ min: 0, max: 3 }), (cents, digits) => {
        expect(formatNumber(cents / 100, digits)).toBe(intl(cents / 100, digits));
      }),
      { numRuns: 20_000 },
    );
  });

  it("without a number of decimals, writes what toLocaleString writes for en-US", () => {
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.maxSafeInteger()), (value) => {
        expect(formatNumber(value)).toBe(value.toLocaleString("en-US"));
      }),
      { numRuns: 20_000 },
    );
    expect([formatNumber(1_000_000), formatNumber(50.5), formatNumber(0.0004)]).toEqual(["1,000,000", "50.5", "0"]);
  });
});
