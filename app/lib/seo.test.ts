import { describe as suite, expect, it } from "vitest";
import { DESCRIPTION_MAX, describe } from "./seo.ts";

suite("describe (meta descriptions)", () => {
  it("keeps a short description as one line", () => {
    expect(describe("  Pays   weekly.\nNo minimum. ")).toBe("Pays weekly. No minimum.");
  });

  it("cuts a long one between words, within the limit, with an ellipsis", () => {
    const text = `${"Sweepstakes offers for tier one geos, paid weekly by wire, ".repeat(4)}end`;
    const cut = describe(text);
    expect(cut.length).toBeLessThanOrEqual(DESCRIPTION_MAX);
    expect(cut.endsWith("…")).toBe(true);
    // The last word kept is whole: the text goes on with a space right after it.
    const kept = cut.slice(0, -1);
    expect(text.startsWith(kept)).toBe(true);
    expect(text[kept.length]).toMatch(/[ ,]/);
  });

  it("cuts inside a word only when one word fills the limit", () => {
    const cut = describe("x".repeat(400));
    expect(cut).toBe(`${"x".repeat(DESCRIPTION_MAX - 1)}…`);
  });
});
