// The currency table (docs/product.md §3): about 150 currencies in use, keyed by code, each with
// every field; the spec's examples and rounding rules (§9) hold.
import { describe, expect, it } from "vitest";
import { CURRENCIES } from "./currencies.ts";

describe("CURRENCIES", () => {
  const table = Object.values(CURRENCIES);

  it("lists about 150 currencies in use, keyed by their ISO code", () => {
    expect(table.length).toBeGreaterThanOrEqual(145);
    expect(table.length).toBeLessThanOrEqual(170);
    for (const [key, c] of Object.entries(CURRENCIES)) expect(c.code).toBe(key);
    // Beyond the 119 of currency-list: currencies affiliates in the Caribbean, Africa and Asia are paid in.
    for (const code of ["AWG", "XCD", "BSD", "ZMW", "MNT", "LAK", "AOA", "XPF"])
      expect(CURRENCIES).toHaveProperty(code);
    // Retired currencies and units of account are not offered.
    for (const code of ["EEK", "LVL", "LTL", "VEF", "ZMK", "XDR", "XSU"]) expect(CURRENCIES).not.toHaveProperty(code);
  });

  it("gives every currency each field of the spec", () => {
    for (const c of table) {
      expect(c.code, c.code).toMatch(/^[A-Z]{3}$/);
      for (const text of [c.symbol, c.name, c.symbol_native, c.name_plural]) expect(text.trim(), c.code).not.toBe("");
      expect([0, 2, 3], c.code).toContain(c.decimal_digits);
      expect(c.rounding, c.code).toBeGreaterThanOrEqual(0);
    }
  });

  it("keeps the spec's examples: symbols, digits and CHF's rounding to 0.05", () => {
    expect([CURRENCIES.USD.symbol, CURRENCIES.CAD.symbol, CURRENCIES.EUR.symbol, CURRENCIES.GBP.symbol]).toEqual([
      "$",
      "CA$",
      "€",
      "£",
    ]);
    expect(CURRENCIES.CHF.rounding).toBe(0.05);
    expect([CURRENCIES.JPY.decimal_digits, CURRENCIES.USD.decimal_digits, CURRENCIES.KWD.decimal_digits]).toEqual([
      0, 2, 3,
    ]);
    expect(CURRENCIES.XCD).toMatchObject({ name: "East Caribbean Dollar", name_plural: "East Caribbean dollars" });
    expect(CURRENCIES.MNT.symbol_native).toBe("₮");
  });
});
