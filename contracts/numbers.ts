// Numbers as en-US writes them ("1,234.50"), without Intl. A browser's first Intl
// formatter loads its locale data: 50–60 ms of a phone's CPU (Lighthouse's 4× slowdown)
// in the task that starts the page. Intl rounds the number's shortest decimal form (the
// digits String(x) writes: 1.005 is "1.005", so "1.01"), half away from zero, and so
// does this; numbers.test.ts compares the two over every kind of double.

const DECIMAL = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;
const GROUPS = /\B(?=(\d{3})+$)/g;
const TRAILING_ZEROS = /\.?0+$/;

/**
 * `value` with its whole part in groups of three and `digits` decimals (1234.5, 2 → "1,234.50"),
 * or, without `digits`, as `value.toLocaleString("en-US")` writes it: up to three, none trailing.
 */
export function formatNumber(value: number, digits?: number): string {
  if (digits === undefined) return formatNumber(value, 3).replace(TRAILING_ZEROS, "");
  if (!Number.isFinite(value))
    return new Intl.NumberFormat("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(
      value,
    );
  const [, whole, fraction = "", exponent = "0"] = DECIMAL.exec(String(Math.abs(value)))!;
  // The decimal figures of |value|, and how many of them come before the point.
  let figures = whole + fraction;
  let point = whole.length + Number(exponent);
  if (point < 0) {
    figures = "0".repeat(-point) + figures;
    point = 0;
  }
  const kept = point + digits;
  if (kept < figures.length) {
    const up = figures[kept] >= "5";
    figures = figures.slice(0, kept);
    if (up) {
      const raised = roundUp(figures);
      point += raised.length - figures.length;
      figures = raised;
    }
  }
  figures = figures.padEnd(point + digits, "0");
  const wholeFigures = figures.slice(0, point).replace(/^0+(?=\d)/, "") || "0";
  const sign = value < 0 || Object.is(value, -0) ? "-" : "";
  return sign + wholeFigures.replace(GROUPS, ",") + (digits > 0 ? `.${figures.slice(point)}` : "");
}

/** Adds one in the last place of a string of figures: "129" → "130", "99" → "100", "" → "1". */
function roundUp(figures: string): string {
  let i = figures.length - 1;
  while (i >= 0 && figures[i] === "9") i--;
  if (i < 0) return "1" + "0".repeat(figures.length);
  return figures.slice(0, i) + String(Number(figures[i]) + 1) + "0".repeat(figures.length - i - 1);
}
