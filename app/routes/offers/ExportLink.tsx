// "Export CSV" beside the search results (issue #14): the current search as a
// file from GET /api/offers/export.csv. Exports need an account, so a signed-out
// visitor sees the same link leading to the login page, which brings them back
// here: the feature is visible to everyone, usable after logging in.
import { useLocation, useRouteLoaderData } from "react-router";
import { offerSearchToUrl, type OfferSearch } from "#contracts/offers.ts";

const EXPORT_PATH = "/api/offers/export.csv";

/** The export's address for a search: the page's own query (without the page: a file starts at the top). */
export function exportHref(state: OfferSearch): string {
  const params = new URLSearchParams(offerSearchToUrl(state));
  params.delete("page");
  if (state.ppc) params.set("ppc", "true");
  return `${EXPORT_PATH}?${params}`;
}

export function ExportLink({ state }: { state: OfferSearch }) {
  const signedIn = Boolean(useRouteLoaderData<{ signedIn: boolean }>("root")?.signedIn);
  const here = useLocation();
  const className = "link whitespace-nowrap text-sm";
  if (signedIn)
    return (
      <a href={exportHref(state)} download className={className} data-testid="export-csv">
        Export CSV
      </a>
    );
  const back = encodeURIComponent(here.pathname + here.search);
  return (
    <a href={`/login?redirectTo=${back}`} className={className} data-testid="export-csv">
      Export CSV <span className="text-slate-500">(log in)</span>
    </a>
  );
}
