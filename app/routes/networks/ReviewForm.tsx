// Write (or edit) a review: stars, comment and the invisible anti-bot token.
// Signed-out visitors get a login link that brings them back here.
import { Link } from "#app/ui/Link.tsx";
import { AntibotForm } from "#app/ui/antibot/AntibotForm.tsx";
import { ANTIBOT_ACTIONS } from "#contracts/antibot.ts";
import { COMMENT_MAX, COMMENT_MIN, type Review } from "#contracts/reviews.ts";
import { StarPicker } from "#app/ui/Stars.tsx";
import type { FormResult } from "#app/ui/form/form.ts";

export function ReviewForm({
  signedIn,
  mine,
  loginHref,
  result,
  busy,
}: {
  signedIn: boolean;
  mine: Review | null;
  loginHref: string;
  result?: FormResult;
  busy?: boolean;
}) {
  if (!signedIn) {
    return (
      <p className="text-sm" data-testid="review-login-prompt">
        <Link to={loginHref} className="link font-medium">
          Log in
        </Link>{" "}
        or{" "}
        <Link to="/register" className="link">
          register
        </Link>{" "}
        to write a review.
      </p>
    );
  }
  const errors = result && !result.ok ? (result.errors ?? {}) : {};
  // After a refusal the form shows again what was typed (without JavaScript the page is rebuilt).
  const typed = result && !result.ok ? (result.values ?? {}) : {};
  const typedRating = Number(typed.rating);
  return (
    // The key resets the fields when the saved review changes. The server judges the fields
    // (noValidate): its docs/product.md §5 messages stand beside them, not the browser's own.
    <AntibotForm
      noValidate
      antibotAction={ANTIBOT_ACTIONS.review}
      preventScrollReset
      className="flex flex-col gap-3"
      key={mine ? `${mine.id}-${mine.updatedAt}` : "new"}
      aria-label={mine ? "Edit your review" : "Write a review"}
    >
      <input type="hidden" name="intent" value="review" />
      {mine && (
        <p className="text-sm text-slate-600">
          You reviewed this network before; sending the form again updates your review.
        </p>
      )}
      <StarPicker
        name="rating"
        defaultValue={Number.isInteger(typedRating) && typedRating > 0 ? typedRating : mine?.rating}
        error={errors.rating}
      />
      <div>
        <label htmlFor="review-comment" className="mb-1 block text-sm font-medium">
          Your review
        </label>
        <textarea
          id="review-comment"
          name="comment"
          rows={5}
          className="input"
          defaultValue={typeof typed.comment === "string" ? typed.comment : (mine?.comment ?? "")}
          minLength={COMMENT_MIN}
          maxLength={COMMENT_MAX}
          required
          aria-invalid={Boolean(errors.comment)}
          aria-describedby={errors.comment ? "review-comment-hint review-comment-error" : "review-comment-hint"}
          placeholder="Payments, offers, support: what was your experience?"
        />
        <p id="review-comment-hint" className="mt-1 text-xs text-slate-500">
          {COMMENT_MIN}–{COMMENT_MAX} characters.
        </p>
        {errors.comment && (
          <p id="review-comment-error" className="field-error" data-field-error="comment" role="alert">
            {errors.comment}
          </p>
        )}
      </div>
      {/* A refusal that belongs to no field (rate limit, anti-bot); field messages stand beside their fields. */}
      {result && !result.ok && result.message && !Object.keys(errors).length && (
        <p className="field-error" role="alert">
          {result.message}
        </p>
      )}
      {result?.ok && (
        <p className="text-sm font-medium text-green-700" role="status">
          {result.message}
        </p>
      )}
      <div>
        <button type="submit" className="btn-primary" disabled={busy}>
          {mine ? "Update review" : "Submit review"}
        </button>
      </div>
    </AntibotForm>
  );
}
