// The offers table: name, network, payout (per currency), payout type, geos,
// vertical and date. Sponsored rows are tinted and labelled "Sponsored"; the
// pinned ones sit on top of the first page of Top Offers. Search rows also mark
// new offers (by the name) and recent payout changes (by the payout).
import { Link } from "#app/ui/Link.tsx";
import { formatPayout } from "#contracts/money.ts";
import { offerUrl, type OfferListItem, type OfferSort } from "#contracts/offers.ts";
import { DataTable, HiddenHeading } from "#app/ui/DataTable.tsx";
import { CompareCheckbox } from "./compare-selection";
import { NewMark, PayoutChangeMark } from "./ChangeMarks";
import { WatchStar } from "#app/ui/WatchStar.tsx";
import type { WatchState } from "#contracts/watchlist.ts";
import { dateText, geosText, payoutTypeLabel, categoriesText } from "./format";

/** Where each heading's link leads, and the order it asks for (`nextDesc`). */
export type SortLink = {
  href: (sortBy: OfferSort) => string;
  nextDesc: (sortBy: OfferSort) => boolean;
  current?: OfferSort;
  desc: boolean;
};

export function SponsoredLabel() {
  return (
    <span className="ml-2 rounded bg-amber-200 px-1.5 py-0.5 text-[10px] font-semibold uppercase tracking-wide text-amber-900">
      Sponsored
    </span>
  );
}

function SortHeader({ label, sortBy, sort }: { label: string; sortBy: OfferSort; sort?: SortLink }) {
  if (!sort) return <th scope="col">{label}</th>;
  const active = sort.current === sortBy;
  // The heading tells the current order (aria-sort); the link says what it does, in the
  // label's own case (the heading's uppercase styling would otherwise be read out).
  return (
    <th scope="col" aria-sort={active ? (sort.desc ? "descending" : "ascending") : undefined}>
      <Link
        to={sort.href(sortBy)}
        preventScrollReset
        aria-label={`${label}, sort ${sort.nextDesc(sortBy) ? "descending" : "ascending"}`}
        className="inline-flex items-center gap-1 hover:text-slate-900"
      >
        {label}
        <span aria-hidden="true">{active ? (sort.desc ? "▼" : "▲") : "↕"}</span>
      </Link>
    </th>
  );
}

export function OffersTable({
  offers,
  sort,
  compare = true,
  caption,
  watch,
}: {
  offers: OfferListItem[];
  sort?: SortLink;
  compare?: boolean;
  caption: string;
  /** The watchlist stars' state (issue #14); without it the rows have no star. */
  watch?: WatchState;
}) {
  return (
    <DataTable
      caption={caption}
      testId="offers-table"
      columns={[
        compare && <HiddenHeading key="compare" label="Compare" />,
        <SortHeader key="name" label="Offer" sortBy="name" sort={sort} />,
        <SortHeader key="network" label="Network" sortBy="network" sort={sort} />,
        <SortHeader key="payout" label="Payout" sortBy="payout" sort={sort} />,
        "Type",
        "Geos",
        "Vertical",
        <SortHeader key="newest" label="Date" sortBy="newest" sort={sort} />,
      ]}
    >
      {offers.map((o) => (
        <tr
          key={o.id}
          data-offer-id={o.id}
          data-sponsored={o.sponsored || undefined}
          className={o.sponsored ? "bg-amber-50" : undefined}
        >
          {compare && (
            <td className="w-8">
              <CompareCheckbox offer={{ id: o.id, name: o.name }} />
            </td>
          )}
          <td>
            {/* Signed out, one "log in to follow" per row would only lengthen the tab order: the offer page has it. */}
            {watch?.signedIn && <WatchStar kind="offer" id={o.id} name={o.name} state={watch} />}
            <Link to={offerUrl(o)} className="link font-medium">
              {o.name}
            </Link>
            {o.sponsored && <SponsoredLabel />}
            {o.isNew && <NewMark />}
          </td>
          <td>
            <Link to={`/network/${o.networkId}/${o.networkSlug}`} className="text-slate-700 hover:underline">
              {o.networkName}
            </Link>
          </td>
          <td className="whitespace-nowrap font-semibold" data-testid="payout">
            {formatPayout(o)}
            {o.payoutChange && <PayoutChangeMark change={o.payoutChange} />}
          </td>
          <td className="whitespace-nowrap">{payoutTypeLabel(o.payoutType)}</td>
          <td className="text-xs text-slate-600" title={o.countries.join(", ")}>
            {geosText(o.countries)}
          </td>
          <td className="text-xs text-slate-600">{categoriesText(o)}</td>
          <td className="whitespace-nowrap text-xs text-slate-600">{dateText(o.createdAt)}</td>
        </tr>
      ))}
    </DataTable>
  );
}
