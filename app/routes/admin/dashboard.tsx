// /admin: the admin's dashboard. What waits in each queue, what people search for
// and what they search for in vain, and the join clicks each network got, per day
// (core/dashboard). Plain tables with inline bars: the numbers are the text, the
// bars only draw them. Moderators work the queues and are sent to the first one.
import { redirect, useLoaderData } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { hasRole } from "#contracts/roles.ts";
import { formatCtr, type AdReport } from "#contracts/ads.ts";
import { dashboardQuery, type Dashboard } from "#core/dashboard/dashboard.ts";
import { FilterTabs } from "#app/ui/admin/AdminTable.tsx";
import { dateTime } from "#app/ui/admin/format.ts";
import { queryOf, requireStaff } from "./staff.server";
import type { Route } from "./+types/dashboard";
import { consoleMeta } from "./console-meta";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "Dashboard");

export async function loader(args: Route.LoaderArgs) {
  const { user, services, site } = requireStaff(args, "moderator");
  if (!hasRole(user, "admin")) throw redirect("/admin/submissions");
  const { days } = queryOf(args.request, dashboardQuery);
  const dashboard = await services.dashboard.read(site.id, days);
  // House-ad CTR over the same days (core/ads/stats.ts).
  const houseAds = await services.ads.report({ from: dashboard.from, to: dashboard.to });
  // Platform categories waiting for a vertical (core/supply/categories.ts).
  const unmappedCategories = await services.platformCategories.unmappedCount();
  return { dashboard, houseAds, unmappedCategories };
}

const PERIODS = [7, 30, 90, 365] as const;

const count = (n: number) => n.toLocaleString("en-US");
/** A row's own header cell (a day, a keyword, a network), read as text rather than as a column title. */
const ROW_HEADER = "bg-white text-sm font-normal normal-case tracking-normal text-slate-900";

/** A number with a bar drawn to scale against `max`; the bar is decoration, the number is read. */
function Bar({ value, max, tone = "brand" }: { value: number; max: number; tone?: "brand" | "amber" }) {
  const width = max > 0 ? Math.max(value > 0 ? 2 : 0, Math.round((value / max) * 100)) : 0;
  return (
    <div className="flex min-w-40 items-center gap-2">
      <span className="w-12 shrink-0 text-right tabular-nums">{count(value)}</span>
      <span aria-hidden="true" className="h-2.5 flex-1 rounded bg-slate-100">
        <span
          className={`block h-2.5 rounded ${tone === "amber" ? "bg-amber-500" : "bg-brand-600"}`}
          style={{ width: `${width}%` }}
        />
      </span>
    </div>
  );
}

function Pending({ pending }: { pending: Dashboard["pending"] & { unmappedCategories: number } }) {
  const queues = [
    { key: "submissions", label: "New network submissions", to: "/admin/submissions?status=new" },
    { key: "reportedReviews", label: "Reported reviews", to: "/admin/reviews?status=reported" },
    { key: "heldReviews", label: "Reviews held by a rule", to: "/admin/reviews?status=held" },
    { key: "inbox", label: "New inbox messages", to: "/admin/inbox?status=new" },
    { key: "unmappedCategories", label: "Unmapped platform categories", to: "/admin/categories" },
  ] as const;
  return (
    <section aria-labelledby="pending-heading" className="mb-8">
      <h2 id="pending-heading" className="mb-2 text-lg font-semibold">
        Waiting now
      </h2>
      <ul className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {queues.map((q) => (
          <li key={q.key}>
            <Link
              to={q.to}
              className="block rounded-md border border-slate-200 bg-white p-3 hover:border-brand-500"
              data-testid={`pending-${q.key}`}
            >
              <span className="block text-2xl font-semibold tabular-nums" data-count>
                {count(pending[q.key])}
              </span>
              <span className="text-sm text-slate-600">{q.label}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

function PerDay({ perDay }: { perDay: Dashboard["perDay"] }) {
  const maxSearches = Math.max(0, ...perDay.map((d) => d.searches));
  const maxClicks = Math.max(0, ...perDay.map((d) => d.joinClicks));
  const total = (key: "searches" | "searchesWithoutResults" | "joinClicks") => perDay.reduce((n, d) => n + d[key], 0);
  return (
    <section aria-labelledby="per-day-heading" className="mb-8">
      <h2 id="per-day-heading" className="mb-2 text-lg font-semibold">
        Searches and join clicks per day
      </h2>
      <div className="overflow-x-auto rounded-md border border-slate-200 bg-white">
        <table className="data-table" data-testid="per-day">
          <caption className="sr-only">Searches, searches without results and join clicks per day (UTC)</caption>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              <th scope="col">Searches</th>
              <th scope="col">Without results</th>
              <th scope="col">Join clicks</th>
            </tr>
          </thead>
          <tbody>
            {[...perDay].reverse().map((d) => (
              <tr key={d.day} data-day={d.day}>
                <th scope="row" className={`${ROW_HEADER} tabular-nums`}>
                  {d.day}
                </th>
                <td data-cell="searches">
                  <Bar value={d.searches} max={maxSearches} />
                </td>
                <td data-cell="without-results" className="tabular-nums">
                  {count(d.searchesWithoutResults)}
                </td>
                <td data-cell="join-clicks">
                  <Bar value={d.joinClicks} max={maxClicks} tone="amber" />
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr data-testid="per-day-total">
              <th scope="row">Total</th>
              <td data-cell="searches" className="tabular-nums">
                {count(total("searches"))}
              </td>
              <td data-cell="without-results" className="tabular-nums">
                {count(total("searchesWithoutResults"))}
              </td>
              <td data-cell="join-clicks" className="tabular-nums">
                {count(total("joinClicks"))}
              </td>
            </tr>
          </tfoot>
        </table>
      </div>
    </section>
  );
}

function Searches({
  title,
  testId,
  rows,
  last,
  empty,
}: {
  title: string;
  testId: string;
  rows: { query: string; searches: number; searchers: number }[];
  last: { header: string; value: (i: number) => string };
  empty: string;
}) {
  const max = Math.max(0, ...rows.map((r) => r.searches));
  return (
    <section aria-labelledby={`${testId}-heading`} className="min-w-0">
      <h2 id={`${testId}-heading`} className="mb-2 text-lg font-semibold">
        {title}
      </h2>
      <div className="overflow-x-auto rounded-md border border-slate-200 bg-white">
        <table className="data-table" data-testid={testId}>
          <caption className="sr-only">{title}</caption>
          <thead>
            <tr>
              <th scope="col">Keyword</th>
              <th scope="col">Searches</th>
              <th scope="col">Visitors</th>
              <th scope="col">{last.header}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={r.query} data-query={r.query}>
                <th scope="row" className={`${ROW_HEADER} break-words`}>
                  {r.query}
                </th>
                <td data-cell="searches">
                  <Bar value={r.searches} max={max} />
                </td>
                <td data-cell="searchers" className="tabular-nums">
                  {count(r.searchers)}
                </td>
                <td className="tabular-nums">{last.value(i)}</td>
              </tr>
            ))}
            {rows.length === 0 && (
              <tr>
                <td colSpan={4} className="text-center text-slate-500">
                  {empty}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function JoinClicks({ networks }: { networks: Dashboard["joinClicksByNetwork"] }) {
  const max = Math.max(0, ...networks.map((n) => n.clicks));
  return (
    <section aria-labelledby="join-clicks-heading" className="mb-8">
      <h2 id="join-clicks-heading" className="mb-2 text-lg font-semibold">
        Join clicks per network
      </h2>
      <div className="overflow-x-auto rounded-md border border-slate-200 bg-white">
        <table className="data-table" data-testid="join-clicks">
          <caption className="sr-only">Join clicks per network, with the days they came on (UTC)</caption>
          <thead>
            <tr>
              <th scope="col">Network</th>
              <th scope="col">Join clicks</th>
              <th scope="col">Per day</th>
            </tr>
          </thead>
          <tbody>
            {networks.map((n) => (
              <tr key={n.networkId} data-network-id={n.networkId}>
                <th scope="row" className={ROW_HEADER}>
                  <Link to={`/network/${n.networkId}`} className="link">
                    {n.name}
                  </Link>
                </th>
                <td data-cell="clicks">
                  <Bar value={n.clicks} max={max} tone="amber" />
                </td>
                <td>
                  <details>
                    <summary className="cursor-pointer text-sm">
                      {n.perDay.length === 1 ? "1 day" : `${n.perDay.length} days`}
                    </summary>
                    <ul className="mt-1 text-sm tabular-nums" data-testid={`join-clicks-days-${n.networkId}`}>
                      {n.perDay.map((d) => (
                        <li key={d.day} data-day={d.day}>
                          {d.day}: {count(d.clicks)}
                        </li>
                      ))}
                    </ul>
                  </details>
                </td>
              </tr>
            ))}
            {networks.length === 0 && (
              <tr>
                <td colSpan={3} className="text-center text-slate-500">
                  No join clicks in this period.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** Impressions, clicks and CTR per house ad over the period; ads nobody saw are left out. */
function HouseAdCtr({ report }: { report: AdReport }) {
  const seen = report.items.filter((ad) => ad.impressions > 0 || ad.clicks > 0);
  const maxImpressions = Math.max(0, ...seen.map((ad) => ad.impressions));
  return (
    <section aria-labelledby="house-ads-heading" className="mb-8">
      <h2 id="house-ads-heading" className="mb-2 text-lg font-semibold">
        House-ad CTR
      </h2>
      <p className="mb-2 text-sm text-slate-600" data-testid="house-ads-totals">
        {count(report.totals.impressions)} impressions, {count(report.totals.clicks)} clicks, CTR{" "}
        {formatCtr(report.totals.ctr)} ·{" "}
        <Link to={`/admin/ads/report?from=${report.from}&to=${report.to}`} className="link">
          Full report
        </Link>
      </p>
      <div className="overflow-x-auto rounded-md border border-slate-200 bg-white">
        <table className="data-table" data-testid="house-ads-ctr">
          <caption className="sr-only">House-ad impressions, clicks and CTR per ad</caption>
          <thead>
            <tr>
              <th scope="col">Ad</th>
              <th scope="col">Size</th>
              <th scope="col">Impressions</th>
              <th scope="col">Clicks</th>
              <th scope="col">CTR</th>
            </tr>
          </thead>
          <tbody>
            {seen.map((ad) => (
              <tr key={ad.id} data-ad-id={ad.id}>
                <th scope="row" className={ROW_HEADER}>
                  <Link to={`/admin/ads/${ad.id}`} className="link">
                    {ad.headline}
                  </Link>
                </th>
                <td>{ad.size}</td>
                <td data-cell="impressions">
                  <Bar value={ad.impressions} max={maxImpressions} />
                </td>
                <td className="tabular-nums" data-cell="clicks">
                  {count(ad.clicks)}
                </td>
                <td className="tabular-nums" data-cell="ctr">
                  {formatCtr(ad.ctr)}
                </td>
              </tr>
            ))}
            {seen.length === 0 && (
              <tr>
                <td colSpan={5} className="text-center text-slate-500">
                  No house ad was shown in this period.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export default function DashboardPage() {
  const { dashboard, houseAds, unmappedCategories } = useLoaderData<typeof loader>();
  const { topSearches, searchesWithoutResults } = dashboard;
  return (
    <section>
      <h1 className="mb-1 text-2xl font-semibold">Dashboard</h1>
      <p className="mb-3 text-sm text-slate-600" data-testid="period">
        {dashboard.from} to {dashboard.to} (UTC), {dashboard.days === 1 ? "1 day" : `${dashboard.days} days`}
      </p>
      <FilterTabs
        label="Period"
        param="days"
        current={String(dashboard.days)}
        options={PERIODS.map((days) => ({ value: String(days), label: `${days} days` }))}
      />
      <Pending pending={{ ...dashboard.pending, unmappedCategories }} />
      <PerDay perDay={dashboard.perDay} />
      <div className="mb-8 grid gap-6 xl:grid-cols-2">
        <Searches
          title="Top searches"
          testId="top-searches"
          rows={topSearches}
          last={{ header: "Results (latest)", value: (i) => count(topSearches[i].latestResults) }}
          empty="No searches in this period."
        />
        <Searches
          title="Searches without results"
          testId="searches-without-results"
          rows={searchesWithoutResults}
          last={{ header: "Last searched", value: (i) => dateTime(searchesWithoutResults[i].lastSearchedAt) }}
          empty="Every search in this period found something."
        />
      </div>
      <JoinClicks networks={dashboard.joinClicksByNetwork} />
      <HouseAdCtr report={houseAds} />
    </section>
  );
}
