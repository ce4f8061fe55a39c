// The search table's marks of recent change (issue #13): "New" for an offer first
// listed in the last RECENT_DAYS days, and "▲ $5.00" / "▼ $2.00" for a payout
// changed in that time, read out in words ("Payout up $5.00 since 20 Nov").
// The text is built from the row alone (UTC dates), so server and browser agree.
import { formatMoney } from "#contracts/money.ts";
import { RECENT_DAYS, type PayoutChange } from "#contracts/offers.ts";

const USD = { code: "USD", symbol: "$", decimalDigits: 2, rounding: 0 };
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "20 Nov" in UTC. */
const dayText = (iso: string) => {
  const d = new Date(iso);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
};

/** The size of a change: USD when the payout has an amount, else percentage points. */
function changeAmountText(change: PayoutChange): string {
  if (change.usd !== null) return formatMoney(change.usd, USD);
  return `${Number((change.percent ?? 0).toFixed(2))}%`;
}

/** What a screen reader says for the mark: "Payout up $5.00 since 20 Nov". */
function changeLabel(change: PayoutChange): string {
  return `Payout ${change.direction} ${changeAmountText(change)} since ${dayText(change.at)}`;
}

export function PayoutChangeMark({ change }: { change: PayoutChange }) {
  const up = change.direction === "up";
  const label = changeLabel(change);
  return (
    <span
      className={`ml-2 whitespace-nowrap rounded px-1 text-xs font-semibold ${up ? "bg-green-100 text-green-800" : "bg-red-100 text-red-800"}`}
      data-testid="payout-change"
      data-direction={change.direction}
      title={label}
    >
      <span aria-hidden="true">
        {up ? "▲" : "▼"} {changeAmountText(change)}
      </span>
      <span className="sr-only">{label}</span>
    </span>
  );
}

export function NewMark() {
  return (
    <span
      className="ml-2 rounded bg-sky-100 px-1.5 py-0.5 text-[10px] font-semibold uppercase tracking-wide text-sky-900"
      data-testid="new-offer"
      title={`First listed in the last ${RECENT_DAYS} days`}
    >
      New
    </span>
  );
}
