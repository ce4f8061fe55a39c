// Network reviews: one per user per network (a second submission edits the
// first), and the network's average and count kept exact in the same transaction.
import { sql, type Database } from "#db/client.ts";
import { HttpError, notFound } from "#core/errors.ts";
import {
  REVIEW_RATE_LIMIT,
  REVIEWS_PAGE_SIZE,
  emptyDistribution,
  reviewInput,
  trustScore,
  type RatingDistribution,
  type Review,
  type ReviewPage,
  type ReviewStatus,
  type ReviewSubmitted,
} from "#contracts/reviews.ts";
import { ANTIBOT_ACTIONS, ANTIBOT_FIELD } from "#contracts/antibot.ts";
import { holdReason } from "./hold-rules.ts";
import { refreshStanding } from "./standing.ts";

/** The anti-bot check (core/antibot): rejects by throwing or by answering false. */
export type AntibotCheck = { verify(token: string, action: string, ip: string): Promise<unknown> };
/** A shared fixed-window counter (core/rate-limit). */
export type RateLimiter = {
  hit(key: string, limit: number, windowSeconds: number): Promise<{ allowed: boolean; retryAfterSeconds: number }>;
};

type RawReview = {
  id: number;
  network_id: number;
  rating: number;
  comment: string;
  user_name: string;
  created_at: Date;
  updated_at: Date;
};

/** "Jane Q. Doe" → "Jane D.": enough to tell reviewers apart without publishing full names. */
function authorName(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return "Anonymous";
  if (parts.length === 1) return parts[0];
  return `${parts[0]} ${parts[parts.length - 1][0].toUpperCase()}.`;
}

function toReview(r: RawReview): Review {
  return {
    id: r.id,
    networkId: r.network_id,
    rating: r.rating,
    comment: r.comment,
    author: authorName(r.user_name),
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
    edited: r.updated_at.getTime() - r.created_at.getTime() > 1000,
  };
}

const REVIEW_COLUMNS = sql`r.id, r.network_id, r.rating, r.comment, u.name AS user_name, r.created_at, r.updated_at`;

export type SubmitReview = {
  networkId: string | number;
  userId: number;
  siteId: string;
  ip: string;
  /** Raw payload: rating, comment, g-recaptcha-response (validated here). */
  input: unknown;
};

export function createReviewService(
  db: Database,
  deps: { antibot?: AntibotCheck; rateLimiter?: RateLimiter; holdFirstReviews?: boolean } = {},
) {
  const networkIdOf = async (id: string | number): Promise<number> => {
    if (!/^[1-9][0-9]{0,15}$/.test(String(id))) throw notFound("Network not found");
    const rows = await db.query<{ id: number }>(
      sql`SELECT id FROM networks WHERE id = ${Number(id)} AND status = 'active'`,
    );
    if (!rows[0]) throw notFound("Network not found");
    return rows[0].id;
  };

  return {
    /** Published reviews, newest first, with the star distribution and the network's standing. */
    async list(networkId: string | number, page = 1, pageSize = REVIEWS_PAGE_SIZE): Promise<ReviewPage> {
      const id = await networkIdOf(networkId);
      const [counts, [network]] = await Promise.all([
        db.query<{ rating: number; n: number }>(sql`
          SELECT rating, count(*)::int AS n FROM reviews WHERE network_id = ${id} AND status = 'published' GROUP BY rating`),
        db.query<{ avg_rating: number; review_count: number }>(
          sql`SELECT avg_rating, review_count FROM networks WHERE id = ${id}`,
        ),
      ]);
      const distribution: RatingDistribution = emptyDistribution();
      let total = 0;
      for (const c of counts) {
        distribution[String(c.rating) as keyof RatingDistribution] = c.n;
        total += c.n;
      }
      const pageCount = Math.max(1, Math.ceil(total / pageSize));
      const current = Math.min(Math.max(1, Math.floor(page) || 1), pageCount);
      const rows = await db.query<RawReview>(sql`
        SELECT ${REVIEW_COLUMNS} FROM reviews r JOIN users u ON u.id = r.user_id
        WHERE r.network_id = ${id} AND r.status = 'published'
        ORDER BY r.created_at DESC, r.id DESC LIMIT ${pageSize} OFFSET ${(current - 1) * pageSize}`);
      return {
        reviews: rows.map(toReview),
        page: current,
        pageSize,
        total,
        pageCount,
        distribution,
        avgRating: network.avg_rating,
        reviewCount: network.review_count,
        trustScore: trustScore(network.avg_rating, network.review_count),
      };
    },

    /** The user's own review of a network, to prefill the form for editing. */
    async mine(networkId: number, userId: number): Promise<Review | null> {
      const rows = await db.query<RawReview>(sql`
        SELECT ${REVIEW_COLUMNS} FROM reviews r JOIN users u ON u.id = r.user_id
        WHERE r.network_id = ${networkId} AND r.user_id = ${userId}`);
      return rows[0] ? toReview(rows[0]) : null;
    },

    /**
     * Validates, rate-limits, checks the anti-bot token, then writes the review and
     * recomputes the network's average and count from the reviews themselves,
     * under a lock on the network row so concurrent reviews cannot lose updates.
     */
    async submit(request: SubmitReview): Promise<ReviewSubmitted> {
      const input = reviewInput.parse(request.input);
      const networkId = await networkIdOf(request.networkId);
      if (deps.rateLimiter) {
        const { limit, windowSeconds } = REVIEW_RATE_LIMIT;
        const verdict = await deps.rateLimiter.hit(`review:user:${request.userId}`, limit, windowSeconds);
        if (!verdict.allowed) {
          throw new HttpError(429, "Too many reviews. Please try again later.", {
            "retry-after": String(verdict.retryAfterSeconds),
          });
        }
      }
      if (deps.antibot) {
        const ok = await deps.antibot.verify(input[ANTIBOT_FIELD], ANTIBOT_ACTIONS.review, request.ip);
        if (ok === false) throw new HttpError(400, "Anti-bot verification failed. Please try again.");
      }
      return db.transaction(async (tx) => {
        await tx.query(sql`SELECT id FROM networks WHERE id = ${networkId} FOR UPDATE`);
        // A hidden review stays hidden when its author edits it; otherwise the rules decide again.
        const heldBecause = await holdReason(
          tx,
          { networkId, userId: request.userId, comment: input.comment },
          { holdFirstReviews: deps.holdFirstReviews ?? false },
        );
        const status = heldBecause ? "held" : "published";
        const [saved] = await tx.query<{ id: number; inserted: boolean; status: ReviewStatus }>(sql`
          INSERT INTO reviews (network_id, user_id, site_id, rating, comment, status, hold_reason)
          VALUES (${networkId}, ${request.userId}, ${request.siteId}, ${input.rating}, ${input.comment}, ${status}, ${heldBecause})
          ON CONFLICT (network_id, user_id) DO UPDATE
            SET rating = EXCLUDED.rating, comment = EXCLUDED.comment, site_id = EXCLUDED.site_id, updated_at = now(),
                status = CASE WHEN reviews.status = 'hidden' THEN 'hidden' ELSE EXCLUDED.status END,
                hold_reason = CASE WHEN reviews.status = 'hidden' THEN reviews.hold_reason ELSE EXCLUDED.hold_reason END
          RETURNING id, (xmax = 0) AS inserted, status`);
        const standing = await refreshStanding(tx, networkId);
        const [row] = await tx.query<RawReview>(sql`
          SELECT ${REVIEW_COLUMNS} FROM reviews r JOIN users u ON u.id = r.user_id WHERE r.id = ${saved.id}`);
        return {
          review: toReview(row),
          created: saved.inserted,
          status: saved.status,
          ...(saved.status === "held" && heldBecause ? { heldBecause } : {}),
          avgRating: standing.avg_rating,
          reviewCount: standing.review_count,
          trustScore: trustScore(standing.avg_rating, standing.review_count),
        };
      });
    },
  };
}
