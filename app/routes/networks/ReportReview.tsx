// "Report" under each review: a signed-in reader picks a reason (and may say
// more); the review stays up until a moderator decides. With JavaScript the
// report is sent in place (a fetcher), without it as a plain post of the page.
import { useFetcher } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { REPORT_COMMENT_MAX, REPORT_REASON_LABELS } from "#contracts/reviews.ts";
import { Fields, TextArea, useSettledActionData } from "#app/ui/form/Fields.tsx";
import type { FormResult } from "#app/ui/form/form.ts";

/** The page's action marks a report's answer with these values, so the review form ignores it. */
export const REPORT_INTENT = "report";

export function ReportReview({
  reviewId,
  signedIn,
  loginHref,
}: {
  reviewId: number;
  signedIn: boolean;
  loginHref: string;
}) {
  const fetcher = useFetcher<FormResult>();
  const posted = useSettledActionData();
  const id = String(reviewId);
  const fromPage = posted?.values?.intent === REPORT_INTENT && posted.values.reviewId === id ? posted : undefined;
  const result = fetcher.data ?? fromPage;
  if (!signedIn)
    return (
      <Link to={loginHref} className="text-xs text-slate-500 underline">
        Report
      </Link>
    );
  if (result?.ok)
    return (
      <p role="status" className="text-xs text-green-800">
        {result.message}
      </p>
    );
  const prefix = `report-${id}`;
  return (
    <details className="text-xs" open={Boolean(result)}>
      <summary className="cursor-pointer text-slate-500 underline">Report</summary>
      <fetcher.Form method="post" className="mt-2 max-w-md space-y-2" aria-label="Report this review">
        <input type="hidden" name="intent" value={REPORT_INTENT} />
        <input type="hidden" name="reviewId" value={id} />
        <Fields errors={result?.errors} values={result?.values} idPrefix={prefix}>
          <fieldset>
            <legend className="text-sm font-medium text-slate-700">Why should a moderator look at it?</legend>
            {Object.entries(REPORT_REASON_LABELS).map(([value, label]) => (
              <label key={value} className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="reason"
                  value={value}
                  required
                  defaultChecked={result?.values?.reason === value}
                />
                {label}
              </label>
            ))}
            {result?.errors?.reason && <p className="field-error">{result.errors.reason}</p>}
          </fieldset>
          <TextArea name="comment" label="Details (optional)" rows={2} maxLength={REPORT_COMMENT_MAX} />
        </Fields>
        {result && !result.ok && !Object.keys(result.errors ?? {}).length && (
          <p role="alert" className="field-error">
            {result.message}
          </p>
        )}
        <button
          type="submit"
          className="rounded border border-slate-300 bg-white px-2 py-1 hover:border-brand-500"
          disabled={fetcher.state !== "idle"}
        >
          Send report
        </button>
      </fetcher.Form>
    </details>
  );
}
