// Integers posted as text (contracts/validation.ts integerField, contracts/reviews.ts ratingField):
// plain decimal digits with an optional leading minus, nothing Number() would also take.
import { describe, expect, it } from "vitest";
import { integerField } from "./validation.ts";
import { ratingField } from "./reviews.ts";

const message = (
  schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { message: string }[] } } },
  v: unknown,
) => schema.safeParse(v).error?.issues[0]?.message;

describe("integerField", () => {
  const offers = integerField("Number of offers", 0);
  const delta = integerField("Delta");

  it.each([
    "0x5",
    "5e0",
    "5E0",
    " 5",
    "5 ",
    "\t5",
    "5\n",
    "Infinity",
    "-Infinity",
    "NaN",
    "5.0",
    "5.",
    ".5",
    "+5",
    "0b101",
    "0o5",
    "1_000",
    "1,000",
    "５",
    "- 5",
    "--5",
    "   ",
  ])("refuses %j with the integer message", (v) =>
    expect(message(offers, v)).toBe("Number of offers must be an integer"),
  );

  it("takes plain digits (leading zeros too) and numbers", () => {
    expect(offers.parse("5")).toBe(5);
    expect(offers.parse("007")).toBe(7);
    expect(offers.parse("0")).toBe(0);
    expect(offers.parse(12)).toBe(12);
    expect(delta.parse("-3")).toBe(-3);
  });

  it("keeps the other messages: blank, below the minimum, fractions, too large", () => {
    expect(message(offers, "")).toBe("Number of offers cannot be blank");
    expect(message(offers, undefined)).toBe("Number of offers cannot be blank");
    expect(message(offers, "-1")).toBe("Number of offers must be greater than or equal to 0");
    expect(message(offers, 1.5)).toBe("Number of offers must be an integer");
    expect(message(offers, "99999999999999999999")).toBe("Number of offers must be an integer");
    expect(message(offers, true)).toBe("Number of offers must be an integer");
  });
});

describe("ratingField", () => {
  it("uses the same rule", () => {
    for (const v of ["0x5", "5e0", " 5", "Infinity", "5.0"])
      expect(message(ratingField, v), v).toBe("Rating must be an integer");
    expect(ratingField.parse("5")).toBe(5);
    expect(message(ratingField, "6")).toBe("Rating must be less than or equal to 5");
    expect(message(ratingField, "0")).toBe("Rating must be greater than or equal to 1");
  });
});
