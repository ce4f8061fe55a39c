// Assertions the tests share. `list.every(test)` is true for an empty list, so a
// check that "every offer runs in the US" would pass when the search found nothing.
import { expect } from "vitest";

/** Asserts that `list` has entries and that each passes `test`; a failure names the entries that did not. */
export function expectEvery<T>(list: readonly T[], test: (item: T) => boolean, what = "list"): void {
  expect(list.length, `${what} is empty`).toBeGreaterThan(0);
  expect(
    list.filter((item) => !test(item)),
    `entries of ${what} that fail the check`,
  ).toEqual([]);
}
