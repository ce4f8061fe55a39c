// /admin/offers: every offer, retired ones too, searched by name and filtered by
// network, status and sponsorship; sorted and paged on the server, all in the URL.
import { Form, useLoaderData } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { createColumnHelper } from "@tanstack/react-table";
import { formatMoney } from "#contracts/money.ts";
import { adminOfferFilter, OFFER_STATUSES, type AdminOfferRow } from "#contracts/offers.ts";
import { AdminTable, FilterTabs, filterOptions } from "#app/ui/admin/AdminTable.tsx";
import { dateTime } from "#app/ui/admin/format.ts";
import { queryOf, requireStaff } from "./staff.server";
import type { Route } from "./+types/offers";
import { consoleMeta } from "./console-meta";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "Offers");

export async function loader(args: Route.LoaderArgs) {
  const { services } = requireStaff(args, "admin");
  const filter = queryOf(args.request, adminOfferFilter);
  const editor = services.offers.editor;
  const [list, choices] = await Promise.all([editor.list(filter), editor.choices()]);
  return { list, filter, networks: choices.networks };
}

function payoutText(o: AdminOfferRow) {
  const parts = [];
  if (o.payoutAmount !== null)
    parts.push(
      formatMoney(o.payoutAmount, { code: o.currency, symbol: `${o.currency} `, decimalDigits: 2, rounding: 0 }),
    );
  if (o.payoutPercent !== null) parts.push(`${o.payoutPercent}%`);
  return `${parts.join(" + ") || "—"} ${o.payoutType}`;
}

function sponsorshipText(o: AdminOfferRow) {
  if (!o.sponsored) return "—";
  const window = o.sponsoredFrom || o.sponsoredUntil ? ` ${o.sponsoredFrom ?? "…"} → ${o.sponsoredUntil ?? "…"}` : "";
  const keywords = o.sponsoredKeywords.length ? ` for “${o.sponsoredKeywords.join("”, “")}”` : "";
  return `Sponsored${keywords}${window}`;
}

const column = createColumnHelper<AdminOfferRow>();
const columns = [
  column.accessor("name", {
    id: "name",
    header: "Offer",
    enableSorting: true,
    cell: ({ row, getValue }) => (
      <Link to={`/admin/offers/${row.original.id}`} className="link font-medium">
        {getValue()}
      </Link>
    ),
  }),
  column.accessor("networkName", { id: "network", header: "Network", enableSorting: true }),
  column.accessor("status", { id: "status", header: "Status", enableSorting: true }),
  column.accessor("sponsored", {
    header: "Sponsorship",
    cell: ({ row }) => <span className="text-sm">{sponsorshipText(row.original)}</span>,
  }),
  column.accessor("payoutUsd", {
    id: "payout",
    header: "Payout",
    enableSorting: true,
    cell: ({ row }) => <span className="whitespace-nowrap">{payoutText(row.original)}</span>,
  }),
  column.accessor("popularity", { id: "popularity", header: "Popularity", enableSorting: true }),
  column.accessor("updatedAt", {
    id: "updatedAt",
    header: "Changed",
    enableSorting: true,
    cell: (c) => dateTime(c.getValue()),
  }),
];

export default function OffersPage() {
  const { list, filter, networks } = useLoaderData<typeof loader>();
  return (
    <section>
      <div className="mb-3 flex items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">Offers</h1>
        <Link to="/admin/offers/new" className="btn-primary">
          New offer
        </Link>
      </div>
      <Form method="get" className="mb-3 flex flex-wrap items-end gap-2" role="search">
        {filter.status && <input type="hidden" name="status" value={filter.status} />}
        {filter.sponsored !== undefined && <input type="hidden" name="sponsored" value={String(filter.sponsored)} />}
        <label className="text-sm">
          Name
          <input type="search" name="q" defaultValue={filter.q ?? ""} className="input mt-1" maxLength={200} />
        </label>
        <label className="text-sm">
          Network
          <select name="networkId" defaultValue={filter.networkId ?? ""} className="input mt-1">
            <option value="">Every network</option>
            {networks.map((n) => (
              <option key={n.id} value={n.id}>
                {n.name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="btn-primary">
          Find
        </button>
      </Form>
      <FilterTabs
        label="Status"
        param="status"
        current={filter.status}
        options={filterOptions("Any status", OFFER_STATUSES)}
      />
      <FilterTabs
        label="Sponsorship"
        param="sponsored"
        current={filter.sponsored === undefined ? undefined : String(filter.sponsored)}
        options={[
          { value: undefined, label: "Sponsored or not" },
          { value: "true", label: "Sponsored" },
          { value: "false", label: "Not sponsored" },
        ]}
      />
      <AdminTable
        caption="Offers"
        testId="offers-table"
        list={list}
        columns={columns}
        sort={filter}
        rowId={(o) => String(o.id)}
        empty="No offer matches."
      />
    </section>
  );
}
