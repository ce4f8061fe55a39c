// /admin/sources: every network's offer sources (issue #13), newest first, with
// their schedule, state and last run, a switch to enable or disable each, and a
// form to add one. The API key is typed into a password field, sealed by
// core/supply/sources.ts before it is stored, and never sent back to the page:
// the list says only whether a source has one.
import { useLoaderData } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { createColumnHelper } from "@tanstack/react-table";
import {
  API_KEY_MAX,
  ENDPOINT_MAX,
  EVERY_MINUTES,
  RETIRE_AFTER_RUNS,
  SOURCE_PLATFORMS,
  sourceFilter,
  type OfferSource,
  type SourceState,
} from "#contracts/supply.ts";
import { refusalOf } from "#core/errors.ts";
import { fieldRefusal } from "#core/networks/editor.ts";
import { NO_SECRETS_KEY } from "#core/supply/secrets.ts";
import { AdminTable } from "#app/ui/admin/AdminTable.tsx";
import { ConsoleForm } from "#app/ui/admin/ConsoleForm.tsx";
import { dateTime } from "#app/ui/admin/format.ts";
import { SelectField, TextField, useSettledActionData } from "#app/ui/form/Fields.tsx";
import { consoleAction, queryOf, requireStaff } from "./staff.server";
import type { Route } from "./+types/sources";
import { consoleMeta } from "./console-meta";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "Offer sources");

export async function loader(args: Route.LoaderArgs) {
  const { services } = requireStaff(args, "admin");
  const filter = queryOf(args.request, sourceFilter);
  const [list, networks] = await Promise.all([
    services.offerSources.list(filter),
    services.offerSources.networkChoices(),
  ]);
  // Why keys cannot be stored, when they cannot (read here: the message's module is server-only).
  const noSecrets = services.secrets.available ? null : NO_SECRETS_KEY;
  return { list, filter, networks, noSecrets };
}

/** The add form's fields a refusal shows again: never the API key. */
const ADD_FIELDS = ["networkId", "platform", "endpoint", "everyMinutes", "retireAfterRuns"];

export async function action(args: Route.ActionArgs) {
  return consoleAction(args, "admin", [...ADD_FIELDS, "updatedAt", "enabled"], {
    add: async (values, { services, site, user }) => {
      try {
        const source = await services.offerSources.add(
          { siteId: site.id, userId: user.id },
          {
            networkId: values.networkId,
            platform: values.platform,
            endpoint: values.endpoint,
            apiKey: values.apiKey,
            everyMinutes: values.everyMinutes,
            retireAfterRuns: values.retireAfterRuns,
          },
        );
        return `Source #${source.id} added for ${source.networkName}.`;
      } catch (err) {
        // No SECRETS_KEY: the form says so beside the key instead of an error page.
        if (refusalOf(err)?.message === NO_SECRETS_KEY) throw fieldRefusal("apiKey", NO_SECRETS_KEY);
        throw err;
      }
    },
    toggle: async (values, { services, site, user }) => {
      const source = await services.offerSources.update({ siteId: site.id, userId: user.id }, values.id, {
        updatedAt: values.updatedAt,
        enabled: values.enabled,
      });
      return source.enabled ? "Enabled." : "Disabled.";
    },
  });
}

const STATE_LABELS: Record<SourceState, string> = { new: "Not synced yet", ok: "OK", failing: "Failing" };

/** "every 6 h", "every 45 min", "every 2 d". */
function schedule(minutes: number) {
  if (minutes % 1440 === 0) return `every ${minutes / 1440} d`;
  if (minutes % 60 === 0) return `every ${minutes / 60} h`;
  return `every ${minutes} min`;
}

const column = createColumnHelper<OfferSource>();

const COLUMNS = [
  column.accessor("networkName", {
    id: "network",
    header: "Network",
    enableSorting: true,
    cell: ({ row, getValue }) => (
      <>
        <Link to={`/admin/sources/${row.original.id}`} className="link">
          {getValue()}
        </Link>
        <span className="block text-xs text-slate-500">Source #{row.original.id}</span>
      </>
    ),
  }),
  column.accessor("platform", { id: "platform", header: "Platform", enableSorting: true }),
  column.accessor("endpoint", {
    header: "Endpoint",
    cell: ({ row, getValue }) => (
      <div className="max-w-xs">
        <span className="break-all">{getValue()}</span>
        <span className="block text-xs text-slate-500">
          {row.original.hasCredentials ? "API key stored" : "No API key"}
        </span>
        {row.original.platform === "feed" && (
          <Link to={`/admin/sources/${row.original.id}/feed`} className="link text-xs">
            Feed file and layout
          </Link>
        )}
      </div>
    ),
  }),
  column.accessor("everyMinutes", {
    id: "nextRunAt",
    header: "Schedule",
    enableSorting: true,
    cell: ({ row }) => (
      <>
        {schedule(row.original.everyMinutes)}
        <span className="block text-xs text-slate-500">next {dateTime(row.original.nextRunAt)}</span>
        <span className="block text-xs text-slate-500">
          retired after {row.original.retireAfterRuns} missed run{row.original.retireAfterRuns === 1 ? "" : "s"}
        </span>
      </>
    ),
  }),
  column.accessor("enabled", {
    header: "Enabled",
    cell: ({ row }) => {
      const s = row.original;
      return (
        <div className="min-w-28">
          <p data-testid="source-enabled">{s.enabled ? "Enabled" : "Disabled"}</p>
          <ConsoleForm
            intent="toggle"
            recordId={s.id}
            submitLabel={s.enabled ? "Disable" : "Enable"}
            tone="plain"
            hidden={{ updatedAt: s.updatedAt, enabled: String(!s.enabled) }}
          />
        </div>
      );
    },
  }),
  column.accessor("state", {
    header: "State",
    cell: ({ row }) => (
      <div className="max-w-xs">
        {STATE_LABELS[row.original.state]}
        {row.original.lastError && (
          <span className="block break-words text-xs text-red-800">{row.original.lastError}</span>
        )}
      </div>
    ),
  }),
  column.accessor("lastRun", {
    header: "Last run",
    cell: ({ getValue }) => {
      const run = getValue();
      if (!run) return <span className="text-slate-500">Never</span>;
      return (
        <div className="min-w-40 text-xs">
          <p className="text-sm">
            {run.status === "succeeded" ? "Succeeded" : run.status === "failed" ? "Failed" : "Running"}{" "}
            {dateTime(run.finishedAt ?? run.startedAt)}
          </p>
          <p>
            seen {run.seen} · new {run.new} · changed {run.changed} · unchanged {run.unchanged} · retired {run.retired}{" "}
            · skipped {run.skipped}
          </p>
          {run.error && <p className="break-words text-red-800">{run.error}</p>}
        </div>
      );
    },
  }),
];

function AddSourceForm({
  networks,
  noSecrets,
}: {
  networks: { id: number; name: string }[];
  noSecrets: string | null;
}) {
  const result = useSettledActionData();
  const mine = result?.values?.intent === "add" ? result : undefined;
  const typedNetwork = !mine?.ok && typeof mine?.values?.networkId === "string" ? mine.values.networkId : "";
  const networkError = mine?.errors?.networkId;
  return (
    <section className="mt-8 max-w-2xl rounded-md border border-slate-200 bg-white p-4" data-testid="add-source">
      <h2 className="mb-3 text-lg font-semibold">Add a source</h2>
      <ConsoleForm intent="add" submitLabel="Add source">
        <div>
          <label htmlFor="add-networkId" className="block text-sm font-medium text-slate-700">
            Network
          </label>
          <select
            id="add-networkId"
            name="networkId"
            required
            defaultValue={typedNetwork}
            key={typedNetwork}
            className="input mt-1"
            aria-invalid={networkError ? true : undefined}
          >
            <option value="">Choose a network</option>
            {networks.map((n) => (
              <option key={n.id} value={n.id}>
                {n.name}
              </option>
            ))}
          </select>
          {networkError && (
            <p className="field-error" data-field-error="networkId">
              {networkError}
            </p>
          )}
        </div>
        <SelectField name="platform" label="Platform" options={SOURCE_PLATFORMS} placeholder="Choose one" required />
        <TextField
          name="endpoint"
          label="Endpoint"
          required
          maxLength={ENDPOINT_MAX}
          hint="The platform's API address; a feed may also be a file:// URL inside the data directory."
        />
        <TextField
          name="apiKey"
          label="API key"
          type="password"
          autoComplete="new-password"
          maxLength={API_KEY_MAX}
          hint={
            noSecrets
              ? `${noSecrets}; only sources without a key can be added.`
              : "Stored encrypted and never shown again. Leave empty for a public feed."
          }
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            name="everyMinutes"
            label="Sync every (minutes)"
            inputMode="numeric"
            placeholder={String(EVERY_MINUTES.default)}
            hint={`${EVERY_MINUTES.min}–${EVERY_MINUTES.max}; ${EVERY_MINUTES.default} when empty.`}
          />
          <TextField
            name="retireAfterRuns"
            label="Retire after missed runs"
            inputMode="numeric"
            placeholder={String(RETIRE_AFTER_RUNS.default)}
            hint={`${RETIRE_AFTER_RUNS.min}–${RETIRE_AFTER_RUNS.max}; ${RETIRE_AFTER_RUNS.default} when empty.`}
          />
        </div>
      </ConsoleForm>
    </section>
  );
}

export default function OfferSourcesPage() {
  const { list, filter, networks, noSecrets } = useLoaderData<typeof loader>();
  return (
    <section>
      <h1 className="mb-3 text-2xl font-semibold">Offer sources</h1>
      {noSecrets && (
        <p role="note" className="mb-3 rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {noSecrets}. Set SECRETS_KEY (32 bytes, hex or base64) to store API keys.
        </p>
      )}
      <AdminTable
        caption="Offer sources"
        testId="sources-table"
        list={list}
        columns={COLUMNS}
        sort={filter}
        rowId={(s) => String(s.id)}
        empty="No offer sources yet."
      />
      <AddSourceForm networks={networks} noSecrets={noSecrets} />
    </section>
  );
}
