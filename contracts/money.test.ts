import { describe, expect, it } from "vitest";
import { formatMoney, formatPayout } from "./money.ts";

const USD = { code: "USD", symbol: "$", decimalDigits: 2, rounding: 0 };
const JPY = { code: "JPY", symbol: "¥", decimalDigits: 0, rounding: 0 };
const KWD = { code: "KWD", symbol: "KD", decimalDigits: 3, rounding: 0 };
const CHF = { code: "CHF", symbol: "CHF", decimalDigits: 2, rounding: 0.05 };

describe("money", () => {
  it("uses each currency's symbol and decimal digits", () => {
    expect(formatMoney(1234.5, USD)).toBe("$1,234.50");
    expect(formatMoney(1500.4, JPY)).toBe("¥1,500");
    expect(formatMoney(2.5, KWD)).toBe("KD 2.500");
  });
  it("rounds CHF to 0.05", () => {
    expect(formatMoney(10.02, CHF)).toBe("CHF 10.00");
    expect(formatMoney(10.03, CHF)).toBe("CHF 10.05");
    expect(formatMoney(10.08, CHF)).toBe("CHF 10.10");
  });
  it("shows percentages for revenue share", () => {
    expect(formatPayout({ payoutAmount: null, payoutPercent: 35, currency: USD })).toBe("35%");
    expect(formatPayout({ payoutAmount: 42, payoutPercent: null, currency: USD })).toBe("$42.00");
    expect(formatPayout({ payoutAmount: null, payoutPercent: null, currency: USD })).toBe("—");
  });
});
