// The network's standing: average, review count, trust score (with how it is
// computed) and how many reviews gave each star count.
import type { RatingDistribution } from "#contracts/reviews.ts";
import { TRUST_SCORE_EXPLANATION } from "#contracts/reviews.ts";
import { Stars } from "#app/ui/Stars.tsx";

export function RatingSummary({
  avgRating,
  reviewCount,
  trustScore,
  distribution,
}: {
  avgRating: number;
  reviewCount: number;
  trustScore: number;
  distribution: RatingDistribution;
}) {
  const max = Math.max(1, ...Object.values(distribution));
  return (
    <div className="grid gap-4 sm:grid-cols-[auto_1fr]" data-testid="rating-summary">
      <div className="flex flex-col gap-1">
        <div className="flex items-baseline gap-2">
          <span className="text-3xl font-bold" data-testid="avg-rating">
            {avgRating.toFixed(2)}
          </span>
          <span className="text-sm text-slate-600">out of 5</span>
        </div>
        <Stars rating={avgRating} size={18} />
        <span className="text-sm text-slate-600" data-testid="review-count">
          {reviewCount} {reviewCount === 1 ? "review" : "reviews"}
        </span>
        <div className="mt-2 rounded bg-brand-50 px-2 py-1 text-sm">
          Trust score <strong data-testid="trust-score">{trustScore.toFixed(2)}</strong>
          <details className="mt-1 text-xs text-slate-600">
            <summary className="cursor-pointer">How is this computed?</summary>
            <p className="mt-1 max-w-xs">{TRUST_SCORE_EXPLANATION}</p>
          </details>
        </div>
      </div>
      <dl className="flex flex-col gap-1 text-sm" aria-label="Rating distribution">
        {(["5", "4", "3", "2", "1"] as const).map((star) => (
          <div key={star} className="grid grid-cols-[3.5rem_1fr_2.5rem] items-center gap-2">
            <dt>
              {star} star{star === "1" ? "" : "s"}
            </dt>
            <dd className="h-2.5 overflow-hidden rounded bg-slate-200">
              <div className="h-full bg-amber-400" style={{ width: `${(distribution[star] / max) * 100}%` }} />
            </dd>
            <dd className="text-right tabular-nums text-slate-600" data-testid={`distribution-${star}`}>
              {distribution[star]}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
