// "Payout history" on the offer page: a server-rendered SVG step chart of the
// payout over time (a point per recorded change, the last value held until the
// page's `now`), and the same points as a table, which is what screen readers read.
import type { PayoutHistoryPoint } from "#contracts/offers.ts";
import { payoutText, typeText } from "./OfferFacts";
import { dateText } from "./format";

export const CHART = { width: 640, height: 180, left: 84, right: 12, top: 14, bottom: 28 } as const;

/** The number a point plots: its amount, or its share for percent-only offers. */
const valueOf = (p: PayoutHistoryPoint) => p.payout ?? p.payoutPercent ?? 0;

const pointText = (p: PayoutHistoryPoint) =>
  payoutText({
    payoutAmount: p.payout,
    payoutPercent: p.payoutPercent,
    currency: p.currency,
    payoutType: p.payoutType,
  });

const round = (n: number) => Math.round(n * 10) / 10;

/**
 * Where each point sits and the step line through them: time runs left to right
 * from the first point to `now` (all points at the left edge's time when they
 * share it), the payout bottom to top between the lowest and highest value
 * (a flat history runs through the middle).
 */
export function chartGeometry(points: readonly PayoutHistoryPoint[], now: string) {
  const { width, height, left, right, top, bottom } = CHART;
  const x0 = left;
  const x1 = width - right;
  const y0 = height - bottom;
  const y1 = top;
  const times = points.map((p) => Date.parse(p.at));
  const start = Math.min(...times);
  const end = Math.max(Date.parse(now), ...times);
  const values = points.map(valueOf);
  const min = Math.min(...values);
  const max = Math.max(...values);
  const x = (t: number) => round(end > start ? x0 + ((t - start) / (end - start)) * (x1 - x0) : x0);
  const y = (v: number) => round(max > min ? y0 - ((v - min) / (max - min)) * (y0 - y1) : (y0 + y1) / 2);
  const dots = points.map((p, i) => ({ x: x(times[i]), y: y(values[i]) }));
  const path = dots
    .map((d, i) => (i === 0 ? `M${d.x} ${d.y}` : `H${d.x} V${d.y}`))
    .concat(`H${round(x1)}`)
    .join(" ");
  const lowest = points[values.indexOf(min)];
  const highest = points[values.indexOf(max)];
  return {
    dots,
    path,
    minLabel: { text: pointText(lowest), y: y(min) },
    maxLabel: max > min ? { text: pointText(highest), y: y(max) } : null,
    axis: { x0, x1, y0, y1 },
  };
}

/** What the chart says to a screen reader: the first and the last payout. */
export function chartSummary(points: readonly PayoutHistoryPoint[]): string {
  const first = points[0];
  const last = points[points.length - 1];
  if (points.length === 1) return `Payout history: ${pointText(first)} since ${dateText(first.at)}`;
  return `Payout history: ${pointText(first)} on ${dateText(first.at)}, ${pointText(last)} on ${dateText(last.at)}, ${points.length} points`;
}

function Chart({ points, now }: { points: readonly PayoutHistoryPoint[]; now: string }) {
  const g = chartGeometry(points, now);
  const { width, height } = CHART;
  return (
    <svg
      role="img"
      aria-label={chartSummary(points)}
      viewBox={`0 0 ${width} ${height}`}
      className="h-auto w-full max-w-2xl"
      data-testid="payout-chart"
    >
      <line x1={g.axis.x0} y1={g.axis.y1} x2={g.axis.x0} y2={g.axis.y0} stroke="#64748b" />
      <line x1={g.axis.x0} y1={g.axis.y0} x2={g.axis.x1} y2={g.axis.y0} stroke="#64748b" />
      <text x={g.axis.x0 - 6} y={g.minLabel.y + 4} textAnchor="end" fontSize="12" fill="#334155">
        {g.minLabel.text}
      </text>
      {g.maxLabel && (
        <text x={g.axis.x0 - 6} y={g.maxLabel.y + 4} textAnchor="end" fontSize="12" fill="#334155">
          {g.maxLabel.text}
        </text>
      )}
      <text x={g.axis.x0} y={height - 8} fontSize="12" fill="#334155">
        {dateText(points[0].at)}
      </text>
      <text x={g.axis.x1} y={height - 8} textAnchor="end" fontSize="12" fill="#334155">
        {dateText(now)}
      </text>
      <path d={g.path} fill="none" stroke="#1d4ed8" strokeWidth="2" />
      {g.dots.map((d, i) => (
        <circle key={i} cx={d.x} cy={d.y} r="4" fill="#1d4ed8" stroke="#ffffff" strokeWidth="1.5" data-point="" />
      ))}
    </svg>
  );
}

/** "Nov 22, 2026 20:35 UTC" */
const whenText = (iso: string) => `${dateText(iso)} ${iso.slice(11, 16)} UTC`;

export function PayoutHistory({ points, now }: { points: readonly PayoutHistoryPoint[]; now: string }) {
  if (!points.length) return null;
  return (
    <section className="card" aria-labelledby="payout-history-title" data-testid="payout-history">
      <h2 id="payout-history-title" className="mb-2 text-lg font-semibold">
        Payout history
      </h2>
      <Chart points={points} now={now} />
      <details className="mt-2 text-sm" open={points.length <= 6}>
        <summary className="cursor-pointer text-slate-700">Show the table</summary>
        <div className="relative overflow-x-auto">
          <table className="data-table mt-2" data-testid="payout-history-table">
            <caption className="sr-only">
              Every change of this offer&apos;s payout, type or status, oldest first
            </caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Payout</th>
                <th scope="col">Type</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {points.map((p, i) => (
                <tr key={i}>
                  <td className="whitespace-nowrap">
                    <time dateTime={p.at}>{whenText(p.at)}</time>
                  </td>
                  <td className="whitespace-nowrap font-semibold">{pointText(p)}</td>
                  <td>{typeText(p)}</td>
                  <td>{p.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}
