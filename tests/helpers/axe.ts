// axe-core in a page driven by playwright-core: the WCAG 2.x A/AA rules and axe's
// best practices, each violation as one readable line so a failing test names the
// rule, the elements and what to fix.
import axe from "axe-core";
import type { Page } from "playwright-core";

const RUN_OPTIONS = {
  runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] },
  resultTypes: ["violations"],
} satisfies axe.RunOptions;

/** A violation of third-party markup the page cannot change: one rule on one element, each with its reason at the caller. */
export type Allowed = { rule: string; target: string };

/** The page's violations, one line per element: "rule (impact): help — selector: how to fix". */
export async function axeViolations(page: Page, allow: Allowed[] = []): Promise<string[]> {
  // Evaluated through the DevTools protocol, so the page's own Content-Security-Policy
  // (no inline scripts) neither blocks axe nor needs loosening for the test.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axe.source);
  // axe places sticky elements as if they did not stick (dequelabs/axe-core#3720): on a
  // scrolled page (a form scrolled to its first error) the navigation bar "covers" whatever
  // is under it at the top and target-size fails. At the top, every box is where axe thinks.
  await page.evaluate(() => window.scrollTo(0, 0));
  const violations = await page.evaluate(
    async (options) => (await window.axe.run(document, options)).violations,
    RUN_OPTIONS as axe.RunOptions,
  );
  const allowed = (rule: string, target: unknown[]) =>
    allow.some((a) => a.rule === rule && target.length === 1 && target[0] === a.target);
  return violations.flatMap((v) =>
    v.nodes
      .filter((n) => !allowed(v.id, n.target))
      .map(
        (n) => `${v.id} (${v.impact}): ${v.help} — ${n.target.join(" ")}: ${n.failureSummary?.replace(/\s+/g, " ")}`,
      ),
  );
}

declare global {
  interface Window {
    axe: typeof axe;
  }
}
