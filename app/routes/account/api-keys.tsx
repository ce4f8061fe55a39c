// /account/api-keys (issue #14): the signed-in account's keys for the public read
// API. A new key is shown once, in the answer to the form that created it; the
// loader never has it, so a reload shows only its recognisable start. Neither
// answer may be kept by a browser or proxy cache (no-store).
import { useEffect, useRef, useState } from "react";
import { Form, useLoaderData, useNavigation } from "react-router";
import { API_KEY_NAME_MAX, API_KEYS_PER_USER, type ApiKeySummary } from "#contracts/api-keys.ts";
import { Fields, FormAlert, TextField, useFormResult } from "#app/ui/form/Fields.tsx";
import type { FormResult } from "#app/ui/form/form.ts";
import { handleForm } from "#app/ui/form/form.server.ts";
import { dateTime } from "#app/ui/admin/format.ts";
import { requireUserOrRedirect } from "#app/lib/guard.server.ts";
import { requestContext } from "#app/context.ts";
import { badRequest } from "#core/errors.ts";
import type { Route } from "./+types/api-keys";
import { unlistedPageMeta } from "#app/lib/seo.ts";

// Every answer of the page (documents and data requests alike), the action's with the new key above
// all; a refusal's own headers (Retry-After) are kept.
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const merged = new Headers(actionHeaders);
  merged.set("cache-control", "no-store");
  return merged;
};

export const meta: Route.MetaFunction = (args) =>
  unlistedPageMeta(args, {
    title: "API keys",
    description: "Create and revoke the keys that read offers, networks and traffic sources through the API.",
  });

/** The action's answer: a created key travels only here, once. */
type KeyResult = FormResult & { created?: { key: string; name: string } };

const FIELDS: ReadonlySet<string> = new Set(["intent", "name", "id"]);

export async function loader({ request, context }: Route.LoaderArgs) {
  const { services, user } = context.get(requestContext);
  const { id } = requireUserOrRedirect(request, user);
  return { keys: await services.apiKeys.list(id), limit: API_KEYS_PER_USER };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { services, user } = context.get(requestContext);
  const { id: userId } = requireUserOrRedirect(request, user);
  return handleForm(request, { fields: FIELDS, refusalField: "name" }, async (values): Promise<KeyResult> => {
    if (values.intent === "revoke") {
      await services.apiKeys.revoke(userId, values.id);
      return { ok: true, message: "API key revoked. Requests made with it are refused from now on." };
    }
    if (values.intent !== "create") throw badRequest("Unknown action");
    const { key } = await services.apiKeys.create(userId, { name: values.name });
    // The service accepted the name, so it was text.
    return { ok: true, created: { key, name: String(values.name ?? "").trim() } };
  });
}

/** The new key in a read-only field with a copy button, and the warning that it is shown only now. */
function NewKey({ created }: { created: NonNullable<KeyResult["created"]> }) {
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => field.current?.select(), []);
  const copy = async () => {
    field.current?.select();
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied(true);
    } catch {
      // Without clipboard access the key stays selected for the visitor to copy by hand.
    }
  };
  return (
    <div role="status" className="card mt-4 border-amber-300 bg-amber-50" data-testid="new-api-key">
      <p className="font-medium text-amber-900">
        Your new API key{created.name ? ` “${created.name}”` : ""}. Copy it now: you will not see it again.
      </p>
      <p className="mt-1 text-sm text-amber-900">
        We keep only a fingerprint of it. If you lose it, revoke it and create another.
      </p>
      <div className="mt-3 flex gap-2">
        <label htmlFor="new-api-key" className="sr-only">
          New API key
        </label>
        <input
          id="new-api-key"
          ref={field}
          className="input font-mono text-sm"
          readOnly
          value={created.key}
          autoComplete="off"
          spellCheck={false}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" className="btn-primary whitespace-nowrap" onClick={() => void copy()}>
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
    </div>
  );
}

/** Revoking asks first: the button opens a confirmation (no JavaScript needed). */
function RevokeKey({ apiKey }: { apiKey: ApiKeySummary }) {
  const label = apiKey.name || apiKey.prefix;
  return (
    <details className="text-sm">
      <summary className="cursor-pointer text-red-700 hover:underline">Revoke</summary>
      <Form method="post" className="mt-2 space-y-2" data-intent="revoke">
        <input type="hidden" name="intent" value="revoke" />
        <input type="hidden" name="id" value={apiKey.id} />
        <p>Apps using {label} will be refused at once. This cannot be undone.</p>
        <button
          type="submit"
          className="rounded bg-red-700 px-3 py-1.5 font-medium text-white hover:bg-red-800"
          aria-label={`Revoke ${label} now`}
        >
          Revoke now
        </button>
      </Form>
    </details>
  );
}

export default function ApiKeysPage() {
  const { keys, limit } = useLoaderData<typeof loader>();
  const { result, busy } = useFormResult();
  const answer = result as KeyResult | undefined;
  // "Revoked" shows once the list has been reloaded without the key, never beside it.
  const settled = useNavigation().state === "idle";
  // A created key empties the form for the next one (a refusal keeps what was typed).
  const createForm = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (answer?.created) createForm.current?.reset();
  }, [answer?.created]);
  return (
    <section className="mx-auto max-w-3xl">
      <h1 className="text-2xl font-semibold">API keys</h1>
      <p className="mt-2 text-slate-600">
        Keys let your scripts read offers and networks through the public API. Send one as{" "}
        <code>Authorization: Bearer &lt;key&gt;</code> or <code>X-Api-Key: &lt;key&gt;</code>. Treat a key like a
        password.
      </p>
      {answer?.created && <NewKey created={answer.created} />}
      {answer?.ok && answer.message && settled && (
        <p role="status" className="mt-4 text-sm text-green-800" data-testid="action-notice">
          {answer.message}
        </p>
      )}
      <Form ref={createForm} method="post" className="card mt-4 space-y-3" data-intent="create" noValidate>
        <input type="hidden" name="intent" value="create" />
        <FormAlert result={result} />
        <Fields errors={result?.errors} values={result?.ok ? undefined : result?.values}>
          <TextField
            label="Name (optional)"
            name="name"
            maxLength={API_KEY_NAME_MAX}
            hint="What the key is for, e.g. the script or server that uses it."
            autoComplete="off"
          />
        </Fields>
        <button type="submit" className="btn-primary" disabled={busy || keys.length >= limit}>
          Create a key
        </button>
        {keys.length >= limit && (
          <p className="text-sm text-slate-600">You have {limit} keys, the most an account may hold.</p>
        )}
      </Form>
      <h2 className="mt-8 text-lg font-semibold">Your keys</h2>
      {keys.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No keys yet.</p>
      ) : (
        <div className="relative mt-2 overflow-x-auto">
          <table className="min-w-full text-sm" data-testid="api-keys">
            <caption className="sr-only">Your API keys</caption>
            <thead>
              <tr className="border-b text-left text-slate-600">
                <th scope="col" className="py-2 pr-3">
                  Name
                </th>
                <th scope="col" className="py-2 pr-3">
                  Key
                </th>
                <th scope="col" className="py-2 pr-3">
                  Created
                </th>
                <th scope="col" className="py-2 pr-3 whitespace-nowrap">
                  Last used
                </th>
                <th scope="col" className="py-2 pr-3">
                  <span className="sr-only">Revoke</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.id} className="border-b align-top" data-testid="api-key" data-key-id={k.id}>
                  <td className="py-2 pr-3">{k.name || <span className="text-slate-500">Unnamed</span>}</td>
                  <td className="py-2 pr-3 font-mono">{k.prefix}…</td>
                  <td className="py-2 pr-3 whitespace-nowrap">{dateTime(k.createdAt)}</td>
                  <td className="py-2 pr-3 whitespace-nowrap">{k.lastUsedAt ? dateTime(k.lastUsedAt) : "Never"}</td>
                  <td className="py-2 pr-3">
                    <RevokeKey apiKey={k} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
