// Review moderation: readers report reviews; moderators work the reported, held
// and hidden queues and hide or restore a review. A hide or restore changes the
// network's average and count (hence its trust score and structured data) and
// writes the audit row in the same transaction as the status change.
import { sql, type Database, type Queryable } from "#db/client.ts";
import { HttpError, notFound } from "#core/errors.ts";
import { recordAudit } from "#core/audit/audit.ts";
import type { RateLimiter } from "#core/rate-limit/limiter.ts";
import { listPage, orderBy } from "#db/listing.ts";
import {
  REVIEW_REPORT_RATE_LIMIT,
  hideInput,
  moderationFilter,
  reportInput,
  type ModeratedReview,
  type ModerationPage,
  type ReviewStatus,
} from "#contracts/reviews.ts";
import { refreshStanding } from "./standing.ts";

const REVIEW_NOT_FOUND = "Review not found";
/** Reports shown per review in the queue; the count says how many there are in all. */
const REPORTS_SHOWN = 20;

/** The queues' sortable columns (contracts/reviews.ts names them). */
const SORTABLE = {
  createdAt: sql`r.created_at`,
  rating: sql`r.rating`,
  reportCount: sql`coalesce(rep.n, 0)`,
  networkName: sql`lower(n.name)`,
};

const isId = (id: string | number) => /^[1-9][0-9]{0,15}$/.test(String(id));

export type ReportReview = {
  networkId: string | number;
  reviewId: string | number;
  userId: number;
  input: unknown;
};

export type ModerateReview = { reviewId: string | number; actorId: number; siteId: string; input?: unknown };

export function createReviewModeration(db: Database, deps: { limiter: RateLimiter }) {
  /** Locks the review's network, then the review; null when there is no such review. */
  async function lockReview(tx: Queryable, reviewId: number) {
    const [ref] = await tx.query<{ network_id: number }>(sql`SELECT network_id FROM reviews WHERE id = ${reviewId}`);
    if (!ref) return null;
    // Same order as a submission (network, then review), so the two cannot deadlock.
    await tx.query(sql`SELECT id FROM networks WHERE id = ${ref.network_id} FOR UPDATE`);
    const [review] = await tx.query<{
      id: number;
      network_id: number;
      status: ReviewStatus;
      hidden_reason: string | null;
    }>(sql`SELECT id, network_id, status, hidden_reason FROM reviews WHERE id = ${reviewId} FOR UPDATE`);
    return review ?? null;
  }

  async function moderate(
    request: ModerateReview,
    change: { action: "review.hide" | "review.restore"; to: "hidden" | "published"; reason: string | null },
  ) {
    if (!isId(request.reviewId)) throw notFound(REVIEW_NOT_FOUND);
    return db.transaction(async (tx) => {
      const review = await lockReview(tx, Number(request.reviewId));
      if (!review) throw notFound(REVIEW_NOT_FOUND);
      if (review.status === change.to) {
        throw new HttpError(
          409,
          change.to === "hidden" ? "The review is already hidden" : "The review is already published",
        );
      }
      const [before] = await tx.query<{ avg_rating: number; review_count: number }>(
        sql`SELECT avg_rating, review_count FROM networks WHERE id = ${review.network_id}`,
      );
      await tx.query(sql`
        UPDATE reviews SET status = ${change.to}, hidden_reason = ${change.reason},
               moderated_by = ${request.actorId}, moderated_at = now()
        WHERE id = ${review.id}`);
      const after = await refreshStanding(tx, review.network_id);
      const result = {
        id: review.id,
        networkId: review.network_id,
        status: change.to,
        hiddenReason: change.reason,
        avgRating: after.avg_rating,
        reviewCount: after.review_count,
      };
      await recordAudit(tx, {
        siteId: request.siteId,
        actorId: request.actorId,
        action: change.action,
        subjectType: "review",
        subjectId: review.id,
        before: {
          status: review.status,
          hiddenReason: review.hidden_reason,
          avgRating: before.avg_rating,
          reviewCount: before.review_count,
        },
        after: {
          status: result.status,
          hiddenReason: result.hiddenReason,
          avgRating: result.avgRating,
          reviewCount: result.reviewCount,
        },
      });
      return result;
    });
  }

  return {
    /** A reader's report of a shown review: one per reader per review, never their own. */
    async report(request: ReportReview): Promise<{ message: string }> {
      const input = reportInput.parse(request.input);
      if (!isId(request.networkId) || !isId(request.reviewId)) throw notFound(REVIEW_NOT_FOUND);
      const [review] = await db.query<{ user_id: number }>(sql`
        SELECT r.user_id FROM reviews r JOIN networks n ON n.id = r.network_id AND n.status = 'active'
        WHERE r.id = ${Number(request.reviewId)} AND r.network_id = ${Number(request.networkId)} AND r.status = 'published'`);
      if (!review) throw notFound(REVIEW_NOT_FOUND);
      if (review.user_id === request.userId) throw new HttpError(400, "You cannot report your own review");
      await deps.limiter.consume(
        `review-report:user:${request.userId}`,
        REVIEW_REPORT_RATE_LIMIT,
        "Too many reports. Please try again later.",
      );
      const inserted = await db.query(sql`
        INSERT INTO review_reports (review_id, user_id, reason, comment)
        VALUES (${Number(request.reviewId)}, ${request.userId}, ${input.reason}, ${input.comment ?? ""})
        ON CONFLICT (review_id, user_id) DO NOTHING
        RETURNING id`);
      if (inserted.length === 0) throw new HttpError(409, "You have already reported this review");
      return { message: "Thank you. A moderator will look at this review." };
    },

    /** One page of a queue (oldest first unless sorted). */
    async list(query: unknown): Promise<ModerationPage> {
      const filter = moderationFilter.parse(query);
      // Reported: still shown, with reports newer than the last moderation (a restore clears the queue).
      const where =
        filter.status === "reported"
          ? sql`r.status = 'published' AND EXISTS (SELECT 1 FROM review_reports x WHERE x.review_id = r.id
                  AND (r.moderated_at IS NULL OR x.created_at > r.moderated_at))`
          : sql`r.status = ${filter.status}`;
      return listPage(
        db,
        filter.page,
        (limit) =>
          db.query<ModeratedReview>(sql`
          SELECT r.id, r.network_id AS "networkId", n.name AS "networkName", u.id AS "authorId",
                 u.name AS "authorName", u.email AS "authorEmail", r.rating, r.comment, r.status,
                 r.hold_reason AS "holdReason", r.hidden_reason AS "hiddenReason",
                 to_char(r.moderated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "moderatedAt",
                 to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt",
                 coalesce(rep.n, 0)::int AS "reportCount", coalesce(rep.items, '[]'::jsonb) AS reports
          FROM reviews r
          JOIN networks n ON n.id = r.network_id
          JOIN users u ON u.id = r.user_id
          LEFT JOIN LATERAL (
            SELECT count(*) AS n,
                   (jsonb_agg(jsonb_build_object('reason', x.reason, 'comment', x.comment,
                      'createdAt', to_char(x.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
                      ORDER BY x.created_at DESC, x.id DESC)
                    FILTER (WHERE x.rank <= ${REPORTS_SHOWN})) AS items
            FROM (SELECT x.*, row_number() OVER (ORDER BY x.created_at DESC, x.id DESC) AS rank
                  FROM review_reports x
                  WHERE x.review_id = r.id AND (${filter.status} <> 'reported'
                        OR r.moderated_at IS NULL OR x.created_at > r.moderated_at)) x
          ) rep ON true
          WHERE ${where}
          ${orderBy(filter, SORTABLE, sql`r.id`)} ${limit}`),
        sql`SELECT count(*)::int AS total FROM reviews r WHERE ${where}`,
      );
    },

    /** Hides a held or published review with the moderator's reason. */
    async hide(request: ModerateReview) {
      const { reason } = hideInput.parse(request.input ?? {});
      return moderate(request, { action: "review.hide", to: "hidden", reason });
    },

    /** Publishes a hidden or held review. */
    async restore(request: ModerateReview) {
      return moderate(request, { action: "review.restore", to: "published", reason: null });
    },

    /** Keeps a reported review shown: its reports leave the queue (they stay on record). */
    async dismissReports(request: ModerateReview) {
      if (!isId(request.reviewId)) throw notFound(REVIEW_NOT_FOUND);
      const reviewId = Number(request.reviewId);
      return db.transaction(async (tx) => {
        const [open] = await tx.query<{ status: string; open: number }>(sql`
          SELECT r.status, (SELECT count(*)::int FROM review_reports x WHERE x.review_id = r.id
                             AND (r.moderated_at IS NULL OR x.created_at > r.moderated_at)) AS open
          FROM reviews r WHERE r.id = ${reviewId} FOR UPDATE`);
        if (!open) throw notFound(REVIEW_NOT_FOUND);
        if (open.status !== "published") throw new HttpError(409, "Only a published review's reports can be dismissed");
        if (open.open === 0) throw new HttpError(409, "The review has no open reports");
        const [review] = await tx.query<{ network_id: number }>(sql`
          UPDATE reviews SET moderated_by = ${request.actorId}, moderated_at = now()
          WHERE id = ${reviewId} RETURNING network_id`);
        await recordAudit(tx, {
          siteId: request.siteId,
          actorId: request.actorId,
          action: "review.dismiss",
          subjectType: "review",
          subjectId: reviewId,
          before: { status: "published", openReports: open.open },
          after: { status: "published", openReports: 0 },
        });
        return { id: reviewId, networkId: review.network_id, status: "published" as const };
      });
    },
  };
}
