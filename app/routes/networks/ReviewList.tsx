import type { Review } from "#contracts/reviews.ts";
import { Stars } from "#app/ui/Stars.tsx";
import { dateText } from "#app/routes/offers/format.ts";
import { ReportReview } from "./ReportReview";

export function ReviewList({
  reviews,
  signedIn,
  loginHref,
}: {
  reviews: Review[];
  signedIn: boolean;
  loginHref: string;
}) {
  if (reviews.length === 0)
    return <p className="text-sm text-slate-600">No reviews yet. Be the first to review this network.</p>;
  return (
    <ol className="flex flex-col divide-y divide-slate-100" data-testid="review-list">
      {reviews.map((r) => (
        <li key={r.id} className="py-3" data-review-id={r.id}>
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <Stars rating={r.rating} size={14} label={`${r.rating} out of 5 stars`} />
            <span className="font-medium">{r.author}</span>
            <time className="text-slate-500" dateTime={r.createdAt}>
              {dateText(r.createdAt)}
            </time>
            {r.edited && <span className="text-xs text-slate-500">(edited)</span>}
          </div>
          <p className="mt-1 whitespace-pre-line text-sm text-slate-800">{r.comment}</p>
          <div className="mt-1">
            <ReportReview reviewId={r.id} signedIn={signedIn} loginHref={loginHref} />
          </div>
        </li>
      ))}
    </ol>
  );
}
