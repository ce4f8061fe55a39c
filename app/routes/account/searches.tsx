// /account/searches (issue #14): the signed-in account's saved searches, each with
// its alert (how often new matching offers, payout changes and retirements are
// mailed), and the watchlist's alert. The search page's "Save this search" form
// posts here (intent "save"), so saving lands on this list.
import { Form, useLoaderData } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { offerSearchFromUrl, offerSearchToUrl, OFFER_TAB_LABELS } from "#contracts/offers.ts";
import {
  ALERT_FREQUENCIES,
  ALERT_FREQUENCY_LABELS,
  SAVED_SEARCH_NAME_MAX,
  type AlertFrequency,
  type SavedSearch,
} from "#contracts/saved-searches.ts";
import { FormAlert, useFormResult } from "#app/ui/form/Fields.tsx";
import type { FormResult } from "#app/ui/form/form.ts";
import { handleForm } from "#app/ui/form/form.server.ts";
import { requireUserOrRedirect } from "#app/lib/guard.server.ts";
import { requestContext } from "#app/context.ts";
import { badRequest } from "#core/errors.ts";
import type { Route } from "./+types/searches";
import { unlistedPageMeta } from "#app/lib/seo.ts";

export const meta: Route.MetaFunction = (args) =>
  unlistedPageMeta(args, {
    title: "Saved searches",
    description: "Your saved offer searches and how often their alerts mail you new and changed offers.",
  });

const FIELDS: ReadonlySet<string> = new Set(["intent", "id", "name", "alertFrequency", "search", "path"]);
/** The search pages a saved search can come from; the pay-per-call page fixes its filter. */
const PPC_PAGE = "/pay-per-call-offers";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { services, user } = context.get(requestContext);
  const { id } = requireUserOrRedirect(request, user);
  return {
    searches: await services.savedSearches.list(id),
    watchlist: await services.savedSearches.watchlistAlert(id),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { services, user } = context.get(requestContext);
  const { id: userId } = requireUserOrRedirect(request, user);
  const saved = services.savedSearches;
  return handleForm(request, { fields: FIELDS, refusalField: "name" }, async (values): Promise<FormResult> => {
    const text = (key: string) => (typeof values[key] === "string" ? (values[key] as string) : undefined);
    switch (values.intent) {
      case "save": {
        // The search as its page read it from the address, forgivingly (a hand-edited link still saves).
        const search = offerSearchFromUrl(new URLSearchParams(text("search") ?? ""), {
          ppc: text("path") === PPC_PAGE ? true : undefined,
        });
        const created = await saved.create(userId, {
          ...search,
          name: text("name"),
          alertFrequency: text("alertFrequency") || "none",
        });
        return { ok: true, message: `Saved "${created.name}".` };
      }
      case "rename":
        await saved.update(userId, text("id"), { name: text("name") });
        return { ok: true, message: "Renamed." };
      case "frequency":
        await saved.update(userId, text("id"), { alertFrequency: text("alertFrequency") });
        return { ok: true, message: "Alert updated." };
      case "delete":
        await saved.remove(userId, text("id"));
        return { ok: true, message: "Saved search deleted." };
      case "watchlist":
        await saved.setWatchlistAlert(userId, { alertFrequency: text("alertFrequency") });
        return { ok: true, message: "Watchlist alert updated." };
      default:
        throw badRequest("Unknown action");
    }
  });
}

/** The address that opens a saved search again. */
function searchHref(s: SavedSearch): string {
  const path = s.search.ppc ? PPC_PAGE : "/";
  return `${path}?${offerSearchToUrl({ ...s.search, page: 1 })}`;
}

function FrequencySelect({ value, label }: { value: AlertFrequency; label: string }) {
  return (
    <select name="alertFrequency" defaultValue={value} aria-label={label} className="input py-1 text-sm">
      {ALERT_FREQUENCIES.map((f) => (
        <option key={f} value={f}>
          {ALERT_FREQUENCY_LABELS[f]}
        </option>
      ))}
    </select>
  );
}

function SavedSearchRow({ s }: { s: SavedSearch }) {
  const filters = [
    s.search.query && `“${s.search.query}”`,
    OFFER_TAB_LABELS[s.search.selectedTab],
    s.search.countries.length ? s.search.countries.join(", ") : null,
  ].filter(Boolean);
  return (
    <li className="card space-y-2" data-testid="saved-search" data-id={s.id}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <Link to={searchHref(s)} className="link font-medium">
          {s.name}
        </Link>
        <span className="text-sm text-slate-500">{filters.join(" · ")}</span>
      </div>
      <div className="flex flex-wrap gap-4">
        <Form method="post" className="flex items-center gap-2" data-intent="frequency">
          <input type="hidden" name="intent" value="frequency" />
          <input type="hidden" name="id" value={s.id} />
          <FrequencySelect value={s.alertFrequency} label={`E-mail alert for ${s.name}`} />
          <button type="submit" className="btn-secondary text-sm">
            Set alert
          </button>
        </Form>
        <Form method="post" className="flex items-center gap-2" data-intent="rename">
          <input type="hidden" name="intent" value="rename" />
          <input type="hidden" name="id" value={s.id} />
          <input
            name="name"
            defaultValue={s.name}
            maxLength={SAVED_SEARCH_NAME_MAX}
            required
            aria-label={`New name for ${s.name}`}
            className="input py-1 text-sm"
          />
          <button type="submit" className="btn-secondary text-sm">
            Rename
          </button>
        </Form>
        <Form method="post" data-intent="delete">
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="id" value={s.id} />
          <button type="submit" className="text-sm text-red-700 hover:underline" aria-label={`Delete ${s.name}`}>
            Delete
          </button>
        </Form>
      </div>
    </li>
  );
}

export default function SavedSearchesPage() {
  const { searches, watchlist } = useLoaderData<typeof loader>();
  const { result } = useFormResult();
  return (
    <section className="mx-auto max-w-3xl">
      <h1 className="text-2xl font-semibold">Saved searches</h1>
      <p className="mt-2 text-slate-600">
        Save a search from the offers page. With an alert, we e-mail you new matching offers, payout changes and offers
        that were retired: at once, or in a daily (07:00 UTC) or weekly (Mondays) digest.
      </p>
      {result?.ok && result.message && (
        <p role="status" className="mt-4 text-sm text-green-800" data-testid="action-notice">
          {result.message}
        </p>
      )}
      {result && !result.ok && (
        <div className="mt-4">
          <FormAlert result={result} />
        </div>
      )}
      {searches.length ? (
        <ul className="mt-4 space-y-3">
          {searches.map((s) => (
            <SavedSearchRow key={s.id} s={s} />
          ))}
        </ul>
      ) : (
        <p className="card mt-4 text-slate-600">
          No saved searches yet.{" "}
          <Link to="/" className="link">
            Search offers
          </Link>{" "}
          and choose “Save this search”.
        </p>
      )}
      <h2 className="mt-8 text-lg font-semibold">Watchlist alert</h2>
      <Form method="post" className="card mt-2 flex flex-wrap items-center gap-2" data-intent="watchlist">
        <input type="hidden" name="intent" value="watchlist" />
        <span className="text-sm">
          Payout changes and retirements of what you follow on{" "}
          <Link to="/account/watchlist" className="link">
            your watchlist
          </Link>
          :
        </span>
        <FrequencySelect value={watchlist.alertFrequency} label="E-mail alert for your watchlist" />
        <button type="submit" className="btn-secondary text-sm">
          Set alert
        </button>
      </Form>
    </section>
  );
}
