// /admin/sources/:id: one offer source (issue #13) for admins: what it reads and
// how often, its state and last error in words an operator can act on, the next
// scheduled run, "Sync now", and its latest runs with their counts. Never its
// credential: only whether it has one.
import { useEffect } from "react";
import { useLoaderData, useRevalidator } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import type { OfferSource } from "#contracts/supply.ts";
import type { SyncRunEntry } from "#core/supply/scheduler.ts";
import { ConsoleForm } from "#app/ui/admin/ConsoleForm.tsx";
import { dateTime } from "#app/ui/admin/format.ts";
import { consoleAction, refusedAsPage, requireStaff } from "./staff.server";
import type { Route } from "./+types/source";
import { consoleMeta } from "./console-meta";

export const meta: Route.MetaFunction = ({ loaderData, ...args }) =>
  consoleMeta(args, loaderData ? `Source #${loaderData.source.id}` : "Offer source");

export async function loader(args: Route.LoaderArgs) {
  const { services } = requireStaff(args, "admin");
  const source = await refusedAsPage(services.offerSources.get(args.params.id));
  const [runs, queued] = await Promise.all([
    services.offerScheduler.history(source.id),
    services.offerScheduler.pending(source.id),
  ]);
  return { source, runs, queued, scheduled: services.offerScheduler.running };
}

export async function action(args: Route.ActionArgs) {
  return consoleAction(args, "admin", [], {
    "sync-now": async (_, { services }) => {
      const source = await services.offerSources.get(args.params.id);
      return (await services.offerScheduler.syncNow(source.id)).message;
    },
  });
}

/** What the operator should know, and do, about the source's state. */
function stateInWords(s: OfferSource): { title: string; advice: string; alarm: boolean } {
  if (s.state === "failing") {
    return {
      title: "Failing: the platform refused this source's credentials",
      advice:
        "Scheduled runs go on but cannot succeed until this is fixed: check the API key and endpoint with the network (store a new key through the API), then press Sync now.",
      alarm: true,
    };
  }
  if (s.lastError) {
    return {
      title: "The last run failed",
      advice:
        "The platform erred or could not be reached; the queue retries such a run with growing delays. If it keeps failing, check the endpoint or ask the network.",
      alarm: true,
    };
  }
  if (s.state === "new") {
    return {
      title: "Not synced yet",
      advice: "The first run comes at the next scheduled time, or press Sync now.",
      alarm: false,
    };
  }
  return { title: "Syncing normally", advice: "The last run succeeded.", alarm: false };
}

/** "every 6 h", "every 45 min", "every 2 d". */
function every(minutes: number) {
  if (minutes % 1440 === 0) return `every ${minutes / 1440} d`;
  if (minutes % 60 === 0) return `every ${minutes / 60} h`;
  return `every ${minutes} min`;
}

/** "4 s", "2 min 5 s"; a run still going has no duration yet. */
function duration(run: SyncRunEntry) {
  if (!run.finishedAt) return "running";
  const seconds = Math.max(0, Math.round((Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000));
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

const STATUS_LABELS: Record<SyncRunEntry["status"], string> = {
  running: "Running",
  succeeded: "Succeeded",
  failed: "Failed",
};

/** How often the page reloads its runs while one is queued or running. */
const FOLLOW_EVERY_MS = 2000;

/**
 * While a run of the source is queued or running (after "Sync now", or a retry
 * waiting), the page reloads its history, so the operator sees the counts land.
 */
function useFollowRuns(busy: boolean, runs: SyncRunEntry[]) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!busy) return;
    const timer = setTimeout(() => {
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, FOLLOW_EVERY_MS);
    return () => clearTimeout(timer);
  }, [busy, revalidator, runs]);
}

const COUNTS = ["seen", "new", "changed", "unchanged", "retired", "skipped"] as const;

function RunHistory({ runs }: { runs: SyncRunEntry[] }) {
  if (!runs.length) return <p className="text-sm text-slate-600">No runs yet.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-sm" data-testid="sync-runs">
        <caption className="sr-only">Latest sync runs</caption>
        <thead>
          <tr className="border-b text-left text-slate-600">
            <th scope="col" className="py-2 pr-3">
              Started
            </th>
            <th scope="col" className="py-2 pr-3">
              Duration
            </th>
            <th scope="col" className="py-2 pr-3">
              Status
            </th>
            {COUNTS.map((c) => (
              <th key={c} scope="col" className="py-2 pr-3 text-right capitalize">
                {c}
              </th>
            ))}
            <th scope="col" className="py-2 pr-3">
              Skipped because / error
            </th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.id} className="border-b align-top" data-testid="sync-run">
              <td className="py-2 pr-3 whitespace-nowrap">{dateTime(run.startedAt)}</td>
              <td className="py-2 pr-3 whitespace-nowrap">{duration(run)}</td>
              <td className="py-2 pr-3" data-testid="sync-run-status">
                {STATUS_LABELS[run.status]}
              </td>
              {COUNTS.map((c) => (
                <td key={c} className="py-2 pr-3 text-right tabular-nums" data-count={c}>
                  {run[c]}
                </td>
              ))}
              <td className="max-w-md py-2 pr-3 text-xs">
                {Object.entries(run.skippedReasons).map(([reason, n]) => (
                  <p key={reason}>
                    {n} × {reason}
                  </p>
                ))}
                {run.error && <p className="break-words text-red-800">{run.error}</p>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export default function OfferSourcePage() {
  const { source: s, runs, queued, scheduled } = useLoaderData<typeof loader>();
  const state = stateInWords(s);
  useFollowRuns(queued || runs[0]?.status === "running", runs);
  return (
    <section>
      <p className="mb-2 text-sm">
        <Link to="/admin/sources" className="link">
          ← Offer sources
        </Link>
      </p>
      <h1 className="text-2xl font-semibold">
        {s.networkName}: {s.platform} source #{s.id}
      </h1>
      <dl className="mt-3 grid max-w-3xl gap-x-4 gap-y-1 text-sm sm:grid-cols-[10rem_1fr]">
        <dt className="text-slate-600">Endpoint</dt>
        <dd className="break-all">{s.endpoint}</dd>
        <dt className="text-slate-600">Credentials</dt>
        <dd>{s.hasCredentials ? "API key stored" : "No API key"}</dd>
        <dt className="text-slate-600">Schedule</dt>
        <dd>
          {s.enabled ? every(s.everyMinutes) : "Disabled: runs only when asked"}; offers missing from{" "}
          {s.retireAfterRuns} run{s.retireAfterRuns === 1 ? "" : "s"} in a row are retired
        </dd>
        <dt className="text-slate-600">Next run</dt>
        <dd data-testid="source-next-run">{s.enabled ? dateTime(s.nextRunAt) : "None scheduled"}</dd>
      </dl>

      <div
        role={state.alarm ? "alert" : "status"}
        data-testid="source-state"
        className={`mt-4 max-w-3xl rounded border px-3 py-2 text-sm ${
          state.alarm ? "border-red-300 bg-red-50 text-red-900" : "border-slate-200 bg-white"
        }`}
      >
        <p className="font-medium">{state.title}</p>
        {s.lastError && <p className="break-words">{s.lastError}</p>}
        <p>{state.advice}</p>
      </div>

      <div className="mt-4 max-w-md">
        {queued && (
          <p className="mb-2 text-sm" data-testid="sync-queued">
            A run of this source is queued.
          </p>
        )}
        <ConsoleForm intent="sync-now" submitLabel="Sync now" />
        {!scheduled && (
          <p className="mt-1 text-xs text-slate-600">
            The sync queue does not run in this process: Sync now runs the source here.
          </p>
        )}
      </div>

      <h2 className="mt-8 mb-2 text-lg font-semibold">Latest runs</h2>
      <RunHistory runs={runs} />
    </section>
  );
}
