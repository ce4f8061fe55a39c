// "Save this search" beside the search results (issue #14): names the current
// search and picks its e-mail alert; the form posts to /account/searches, which
// lists it after saving. Signed out, the same words lead to the login page, which
// brings the visitor back to this search.
import { Form, useLocation, useRouteLoaderData } from "react-router";
import { OFFER_TAB_LABELS, offerSearchToUrl, type OfferSearch } from "#contracts/offers.ts";
import { ALERT_FREQUENCIES, ALERT_FREQUENCY_LABELS, SAVED_SEARCH_NAME_MAX } from "#contracts/saved-searches.ts";

/** A name to start from: the words searched for, else the tab. */
const suggestedName = (state: OfferSearch) =>
  (state.query || OFFER_TAB_LABELS[state.selectedTab]).slice(0, SAVED_SEARCH_NAME_MAX);

export function SaveSearch({ state, path }: { state: OfferSearch; path: string }) {
  const signedIn = Boolean(useRouteLoaderData<{ signedIn: boolean }>("root")?.signedIn);
  const here = useLocation();
  if (!signedIn)
    return (
      <a
        href={`/login?redirectTo=${encodeURIComponent(here.pathname + here.search)}`}
        className="link whitespace-nowrap text-sm"
        data-testid="save-search"
      >
        Save this search <span className="text-slate-500">(log in)</span>
      </a>
    );
  return (
    <details className="text-sm" data-testid="save-search">
      <summary className="link cursor-pointer whitespace-nowrap">Save this search</summary>
      <Form method="post" action="/account/searches" className="card mt-2 flex flex-wrap items-end gap-2">
        <input type="hidden" name="intent" value="save" />
        <input type="hidden" name="search" value={offerSearchToUrl(state)} />
        <input type="hidden" name="path" value={path} />
        <label className="flex flex-col">
          <span>Name</span>
          <input
            name="name"
            className="input mt-1 py-1"
            defaultValue={suggestedName(state)}
            maxLength={SAVED_SEARCH_NAME_MAX}
            required
          />
        </label>
        <label className="flex flex-col">
          <span>E-mail alert</span>
          <select name="alertFrequency" defaultValue="daily" className="input mt-1 py-1">
            {ALERT_FREQUENCIES.map((f) => (
              <option key={f} value={f}>
                {ALERT_FREQUENCY_LABELS[f]}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="btn-primary py-1">
          Save
        </button>
      </Form>
    </details>
  );
}
