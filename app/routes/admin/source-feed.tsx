// /admin/sources/:id/feed: a feed source's file and layout (issue #13,
// docs/supply/feeds.md). An admin uploads the network's CSV or JSON file — kept
// under DATA_DIR/feeds and made the source's endpoint by core/supply/feed-files.ts,
// with its audit row — or names, per template field, the column of a feed laid
// out differently. The upload is a multipart page form read within the server's
// page-form limit (server/plugins/react-router.ts), as the add-your-network logo is.
import { Form, useLoaderData, useNavigation } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { columnsOf, FEED_UPLOAD_MAX_BYTES, REQUIRED_FIELDS, TEMPLATE_FIELDS } from "#core/supply/feed-template.ts";
import { ConsoleForm } from "#app/ui/admin/ConsoleForm.tsx";
import { dateTime } from "#app/ui/admin/format.ts";
import { Fields, FileField, SelectField, TextField, useSettledActionData } from "#app/ui/form/Fields.tsx";
import type { FormValues } from "#app/ui/form/form.ts";
import { consoleAction, refusedAsPage, requireStaff } from "./staff.server";
import type { Route } from "./+types/source-feed";
import { consoleMeta } from "./console-meta";

/** The published template every mapping defaults to (public/offer-feed-template.csv). */
const TEMPLATE_URL = "/offer-feed-template.csv";
const MAX_MB = FEED_UPLOAD_MAX_BYTES / 1024 / 1024;

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "Feed source");

export async function loader(args: Route.LoaderArgs) {
  const { services } = requireStaff(args, "admin");
  const source = await refusedAsPage(services.feedFiles.get(args.params.id));
  return { source, columns: columnsOf(source.settings) };
}

const text = (v: FormValues[string] | undefined) => (typeof v === "string" ? v : "");

export async function action(args: Route.ActionArgs) {
  requireStaff(args, "admin");
  // consoleAction hands its intents the text fields only: the file is read from a copy of the post.
  const form = await args.request
    .clone()
    .formData()
    .catch(() => undefined);
  const fields = ["updatedAt", "format", "delimiter", ...TEMPLATE_FIELDS.map((f) => `columns.${f}`)];
  return consoleAction(args, "admin", fields, {
    upload: async (values, { services, site, user }) => {
      const file = form?.get("file");
      const upload =
        file instanceof File
          ? { filename: file.name, bytes: Buffer.from(await file.arrayBuffer()) }
          : { filename: "", bytes: Buffer.alloc(0) };
      await services.feedFiles.upload({ siteId: site.id, userId: user.id }, args.params.id, {
        updatedAt: values.updatedAt,
        ...upload,
      });
      return `${upload.filename} uploaded (${Math.ceil(upload.bytes.length / 1024)} KB): the next sync reads it.`;
    },
    layout: async (values, { services, site, user }) => {
      await services.feedFiles.saveLayout({ siteId: site.id, userId: user.id }, args.params.id, {
        updatedAt: values.updatedAt,
        columns: Object.fromEntries(TEMPLATE_FIELDS.map((f) => [f, text(values[`columns.${f}`])])),
        format: text(values.format),
        delimiter: text(values.delimiter),
      });
      return "Feed layout saved.";
    },
  });
}

/** The upload: a multipart form (ConsoleForm posts urlencoded), answered beside its file field. */
function UploadForm({ updatedAt }: { updatedAt: string }) {
  const result = useSettledActionData();
  const navigation = useNavigation();
  const mine = navigation.state === "idle" && result?.values?.intent === "upload" ? result : undefined;
  return (
    <Form method="post" encType="multipart/form-data" className="space-y-3" data-intent="upload">
      <input type="hidden" name="intent" value="upload" />
      <input type="hidden" name="updatedAt" value={updatedAt} />
      <Fields errors={mine?.errors} idPrefix="upload">
        <FileField
          name="file"
          label="Feed file"
          required
          accept=".csv,.json"
          hint={`CSV (UTF-8) or JSON, at most ${MAX_MB} MB; larger feeds are read from an address instead.`}
        />
      </Fields>
      {mine?.message && (
        <p
          role={mine.ok ? "status" : "alert"}
          className={mine.ok ? "text-sm text-green-800" : "field-error"}
          data-testid="upload-result"
        >
          {mine.message}
        </p>
      )}
      <button type="submit" className="btn-primary" disabled={navigation.state === "submitting"}>
        Upload
      </button>
    </Form>
  );
}

export default function SourceFeedPage() {
  const { source, columns } = useLoaderData<typeof loader>();
  const required = new Set<string>(REQUIRED_FIELDS);
  const run = source.lastRun;
  const defaults: FormValues = {
    format: typeof source.settings.format === "string" ? source.settings.format : "",
    delimiter: typeof source.settings.delimiter === "string" ? source.settings.delimiter : "",
    ...Object.fromEntries(TEMPLATE_FIELDS.map((f) => [`columns.${f}`, columns[f]])),
  };
  return (
    <section className="max-w-3xl">
      <p className="text-sm">
        <Link to="/admin/sources" className="text-brand-700 hover:underline">
          Offer sources
        </Link>
      </p>
      <h1 className="mb-1 text-2xl font-semibold">
        Feed of {source.networkName} <span className="text-base text-slate-500">(source #{source.id})</span>
      </h1>
      <p className="text-sm text-slate-600" data-testid="feed-endpoint">
        Reads <span className="break-all">{source.endpoint}</span>
      </p>
      {run && (
        <p className="text-sm text-slate-600" data-testid="feed-last-run">
          Last run {run.status} {dateTime(run.finishedAt ?? run.startedAt)}: seen {run.seen}, new {run.new}, changed{" "}
          {run.changed}, skipped {run.skipped}
          {run.error ? ` — ${run.error}` : ""}
        </p>
      )}
      <p className="mt-3 text-sm">
        Feeds in the{" "}
        <a href={TEMPLATE_URL} download className="text-brand-700 underline">
          offer feed template
        </a>{" "}
        (CSV headers {TEMPLATE_FIELDS.join(", ")}) need no mapping.
      </p>

      <section className="mt-6 rounded-md border border-slate-200 bg-white p-4" data-testid="feed-upload">
        <h2 className="mb-3 text-lg font-semibold">Upload a feed file</h2>
        <UploadForm updatedAt={source.updatedAt} />
      </section>

      <section className="mt-6 rounded-md border border-slate-200 bg-white p-4" data-testid="feed-layout">
        <h2 className="mb-1 text-lg font-semibold">Layout</h2>
        <p className="mb-3 text-sm text-slate-600">
          The column (for JSON: the key) holding each template field. A field left as its template name is read from the
          column of that name.
        </p>
        <ConsoleForm
          intent="layout"
          submitLabel="Save layout"
          hidden={{ updatedAt: source.updatedAt }}
          defaults={defaults}
        >
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField name="format" label="Format" options={["csv", "json"]} placeholder="From the file name" />
            <SelectField name="delimiter" label="CSV delimiter" options={[";", "tab"]} placeholder=", (comma)" />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            {TEMPLATE_FIELDS.map((field) => (
              <TextField
                key={field}
                name={`columns.${field}`}
                label={field}
                placeholder={field}
                maxLength={200}
                required={required.has(field)}
              />
            ))}
          </div>
        </ConsoleForm>
      </section>
    </section>
  );
}
