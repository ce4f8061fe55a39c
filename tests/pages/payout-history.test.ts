// The payout history chart's geometry and its server-rendered markup at the edges:
// one point, a flat history, percent-only payouts, and a rise from one point to the next.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { PayoutHistoryPoint } from "#contracts/offers.ts";
import { CHART, chartGeometry, chartSummary, PayoutHistory } from "#app/routes/offers/PayoutHistory.tsx";
import { agoText, Verified } from "#app/routes/offers/Verified.tsx";

const USD = { code: "USD", symbol: "$", decimalDigits: 2, rounding: 0 };
const point = (at: string, payout: number | null, payoutPercent: number | null = null): PayoutHistoryPoint => ({
  at,
  payout,
  payoutPercent,
  currency: USD,
  payoutType: payout === null ? "revshare" : "CPA",
  status: "active",
});
const NOW = "2026-11-22T12:00:00.000Z";
const bottom = CHART.height - CHART.bottom;
const middle = (CHART.top + bottom) / 2;
const render = (points: PayoutHistoryPoint[]) =>
  renderToStaticMarkup(createElement(PayoutHistory, { points, now: NOW }));

describe("payout history chart", () => {
  it("a rise puts the first point bottom left, the second top, and steps the line to the right edge", () => {
    const g = chartGeometry([point("2026-11-20T12:00:00.000Z", 10), point("2026-11-21T12:00:00.000Z", 17)], NOW);
    expect(g.dots).toEqual([
      { x: CHART.left, y: bottom },
      { x: CHART.left + (CHART.width - CHART.right - CHART.left) / 2, y: CHART.top },
    ]);
    expect(g.path).toBe(`M${CHART.left} ${bottom} H${g.dots[1].x} V${CHART.top} H${CHART.width - CHART.right}`);
    expect(g.minLabel.text).toBe("$10.00");
    expect(g.maxLabel?.text).toBe("$17.00");
    const html = render([point("2026-11-20T12:00:00.000Z", 10), point("2026-11-21T12:00:00.000Z", 17)]);
    expect(html.match(/<circle/g)).toHaveLength(2);
    expect(html).toContain('role="img"');
    expect(html).toContain('aria-label="Payout history: $10.00 on Nov 20, 2026, $17.00 on Nov 21, 2026, 2 points"');
    expect(html.match(/<tr>/g)).toHaveLength(3); // the head and two rows
  });

  it("one point sits mid-height at the left and holds to the right edge, with one axis label", () => {
    const pts = [point("2026-11-22T09:00:00.000Z", 25)];
    const g = chartGeometry(pts, NOW);
    expect(g.dots).toEqual([{ x: CHART.left, y: middle }]);
    expect(g.path).toBe(`M${CHART.left} ${middle} H${CHART.width - CHART.right}`);
    expect(g.maxLabel).toBeNull();
    expect(chartSummary(pts)).toBe("Payout history: $25.00 since Nov 22, 2026");
    // A point recorded at the render time itself: no division by a zero span.
    expect(chartGeometry([point(NOW, 25)], NOW).dots).toEqual([{ x: CHART.left, y: middle }]);
    expect(render(pts).match(/<circle/g)).toHaveLength(1);
  });

  it("equal payouts draw a flat line through the middle, no NaN anywhere", () => {
    const pts = [point("2026-11-20T00:00:00.000Z", 5), point("2026-11-21T00:00:00.000Z", 5), point(NOW, 5)];
    const g = chartGeometry(pts, NOW);
    expect(g.dots.map((d) => d.y)).toEqual([middle, middle, middle]);
    expect(g.dots[2].x).toBe(CHART.width - CHART.right);
    expect(g.maxLabel).toBeNull();
    expect(render(pts)).not.toContain("NaN");
  });

  it("percent-only payouts plot their share and label it as a percentage", () => {
    const pts = [point("2026-11-20T00:00:00.000Z", null, 30), point("2026-11-21T00:00:00.000Z", null, 25)];
    const g = chartGeometry(pts, NOW);
    expect(g.dots.map((d) => d.y)).toEqual([CHART.top, bottom]);
    expect(g.minLabel.text).toBe("25%");
    expect(g.maxLabel?.text).toBe("30%");
    expect(chartSummary(pts)).toBe("Payout history: 30% on Nov 20, 2026, 25% on Nov 21, 2026, 2 points");
  });

  it("no history renders nothing", () => {
    expect(render([])).toBe("");
  });
});

describe("verified line", () => {
  it("counts the age from the given now, in the largest whole unit", () => {
    expect(agoText("2026-11-22T09:00:00.000Z", NOW)).toBe("3 hours ago");
    expect(agoText("2026-11-22T11:59:00.000Z", NOW)).toBe("1 minute ago");
    expect(agoText("2026-11-22T11:59:30.000Z", NOW)).toBe("just now");
    expect(agoText("2026-11-19T11:00:00.000Z", NOW)).toBe("3 days ago");
  });

  it("names the platform and carries the exact UTC time", () => {
    const html = renderToStaticMarkup(
      createElement(Verified, { verification: { at: "2026-11-22T09:00:00.000Z", platform: "everflow" }, now: NOW }),
    );
    expect(html).toContain('<time dateTime="2026-11-22T09:00:00.000Z" title="2026-11-22 09:00 UTC">3 hours ago</time>');
    expect(html.replace(/<[^>]+>/g, "")).toMatch(/Verified 3 hours ago from the network(&#x27;|')s Everflow platform/);
    expect(renderToStaticMarkup(createElement(Verified, { verification: null, now: NOW }))).toBe("");
  });
});
