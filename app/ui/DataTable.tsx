// The directory's tables (offers, networks, traffic sources, compare): a framed,
// horizontally scrollable table with a caption for screen readers and one header row.
import { Fragment, type ReactElement, type ReactNode } from "react";

/** A heading read out but not shown (logo, checkbox and button columns). */
export const HiddenHeading = ({ label }: { label: string }) => (
  <th scope="col">
    <span className="sr-only">{label}</span>
  </th>
);

/** `columns`: plain headings as text, any other heading as its own <th>. */
export function DataTable({
  caption,
  testId,
  columns,
  children,
}: {
  caption: string;
  testId: string;
  columns: (string | ReactElement | false)[];
  children: ReactNode;
}) {
  // Positioned, so the headings' absolutely placed sr-only text stays inside the scroll
  // box instead of widening the page on a phone.
  return (
    <div className="relative overflow-x-auto rounded-md border border-slate-200 bg-white">
      <table className="data-table" data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c, i) =>
              typeof c === "string" ? (
                <th key={i} scope="col">
                  {c}
                </th>
              ) : (
                <Fragment key={i}>{c}</Fragment>
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
