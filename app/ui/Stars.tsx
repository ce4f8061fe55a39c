// Star ratings: a read-only display (with partial stars for averages) and the
// 1–5 picker of the review form, which is a radio group so it works without JavaScript.
import { useId, useState } from "react";

const STAR_PATH = "M10 1.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L10 14.9l-5.2 2.7 1-5.8L1.5 7.7l5.9-.9z";

export function Stars({ rating, size = 16, label }: { rating: number; size?: number; label?: string }) {
  const clipId = useId();
  const fill = Math.max(0, Math.min(5, rating)) / 5;
  return (
    <span
      className="inline-flex items-center align-middle"
      role="img"
      aria-label={label ?? `Rated ${rating.toFixed(1)} out of 5`}
    >
      <svg width={size * 5} height={size} viewBox="0 0 100 20" aria-hidden="true">
        <defs>
          <clipPath id={clipId}>
            <rect x="0" y="0" width={100 * fill} height="20" />
          </clipPath>
        </defs>
        {[0, 1, 2, 3, 4].map((i) => (
          <path key={`e${i}`} d={STAR_PATH} transform={`translate(${i * 20} 0)`} className="fill-slate-200" />
        ))}
        <g clipPath={`url(#${clipId})`}>
          {[0, 1, 2, 3, 4].map((i) => (
            <path key={`f${i}`} d={STAR_PATH} transform={`translate(${i * 20} 0)`} className="fill-amber-400" />
          ))}
        </g>
      </svg>
    </span>
  );
}

const WORDS = ["", "Terrible", "Poor", "Average", "Good", "Excellent"] as const;

export function StarPicker({ name, defaultValue, error }: { name: string; defaultValue?: number; error?: string }) {
  const [value, setValue] = useState(defaultValue ?? 0);
  const [hover, setHover] = useState(0);
  const shown = hover || value;
  return (
    <fieldset>
      <legend className="mb-1 text-sm font-medium">Your rating</legend>
      <div className="flex items-center gap-1" onMouseLeave={() => setHover(0)}>
        {[1, 2, 3, 4, 5].map((n) => (
          <label key={n} className="cursor-pointer" onMouseEnter={() => setHover(n)}>
            <input
              type="radio"
              name={name}
              value={n}
              className="peer sr-only"
              checked={value === n}
              onChange={() => setValue(n)}
              aria-label={`${n} star${n > 1 ? "s" : ""}`}
            />
            <svg
              width="28"
              height="28"
              viewBox="0 0 20 20"
              aria-hidden="true"
              className={`rounded peer-focus-visible:ring-2 peer-focus-visible:ring-brand-500 ${n <= shown ? "fill-amber-400" : "fill-slate-200"}`}
            >
              <path d={STAR_PATH} />
            </svg>
          </label>
        ))}
        <span className="ml-2 text-sm text-slate-600" aria-live="polite">
          {shown ? WORDS[shown] : ""}
        </span>
      </div>
      {error && (
        <p className="field-error" data-field-error={name} role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
