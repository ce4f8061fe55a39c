// Network reviews: the submission payload (docs/product.md §3: comment, rating,
// g-recaptcha-response, site), the answer shapes, and the trust score.
import { z } from "zod";
import { messages } from "./messages.ts";
import { integerInput, optionalText, requiredText } from "./validation.ts";
import { adminPage, adminSort, type AdminList } from "./admin.ts";
import { ANTIBOT_FIELD, antibotToken } from "./antibot.ts";

const RATING_MIN = 1;
const RATING_MAX = 5;
export const COMMENT_MIN = 20;
export const COMMENT_MAX = 2000;
export const REVIEWS_PAGE_SIZE = 10;
/** Reviews one user may submit (new or edited) per window, across networks. */
export const REVIEW_RATE_LIMIT = { limit: 5, windowSeconds: 600 } as const;

/** Whole stars; as text only plain digits ("5"), never "0x5", "5e0", " 5" or "5.0". */
export const ratingField = z.preprocess(
  integerInput,
  z
    .number({ error: (i) => (i.input === undefined ? messages.required("Rating") : messages.integer("Rating")) })
    .int(messages.integer("Rating"))
    .min(RATING_MIN, messages.minValue("Rating", RATING_MIN))
    .max(RATING_MAX, `Rating must be less than or equal to ${RATING_MAX}`),
);

export const reviewInput = z.object({
  rating: ratingField,
  comment: z
    .string({ error: messages.required("Comment") })
    .trim()
    .min(1, messages.required("Comment"))
    .min(COMMENT_MIN, messages.minLength("Comment", COMMENT_MIN))
    .max(COMMENT_MAX, `Comment must be at most ${COMMENT_MAX} characters long`),
  [ANTIBOT_FIELD]: antibotToken.default(""),
});

export type Review = {
  id: number;
  networkId: number;
  rating: number;
  comment: string;
  /** First name and last initial: enough to tell reviewers apart, no more. */
  author: string;
  createdAt: string;
  updatedAt: string;
  edited: boolean;
};

/** How many published reviews gave each star count, keys "1" to "5". */
export type RatingDistribution = Record<"1" | "2" | "3" | "4" | "5", number>;

export type ReviewPage = {
  reviews: Review[];
  page: number;
  pageSize: number;
  total: number;
  pageCount: number;
  distribution: RatingDistribution;
  avgRating: number;
  reviewCount: number;
  trustScore: number;
};

/** Shown and counted; held for a moderator by a rule; hidden by a moderator. */
export type ReviewStatus = "published" | "held" | "hidden";

export type ReviewSubmitted = {
  review: Review;
  /** "held" when a moderation rule keeps it back; `heldBecause` then says which. */
  status: ReviewStatus;
  heldBecause?: string;
  /** False when the user's earlier review of this network was edited instead. */
  created: boolean;
  avgRating: number;
  reviewCount: number;
  trustScore: number;
};

/**
 * Trust score: a Bayesian average. Every network starts as if it had
 * TRUST_PRIOR_WEIGHT reviews at TRUST_PRIOR_MEAN stars, so a few reviews move
 * it a little and many reviews move it close to their plain average: one 5-star
 * review scores 3.33, a hundred 4-star reviews score 3.95.
 */
const TRUST_PRIOR_MEAN = 3;
const TRUST_PRIOR_WEIGHT = 5;

export function trustScore(avgRating: number, reviewCount: number): number {
  const score = (TRUST_PRIOR_WEIGHT * TRUST_PRIOR_MEAN + avgRating * reviewCount) / (TRUST_PRIOR_WEIGHT + reviewCount);
  return Math.round(score * 100) / 100;
}

export const TRUST_SCORE_EXPLANATION =
  `The trust score is a Bayesian average: every network starts as if it had ${TRUST_PRIOR_WEIGHT} reviews of ` +
  `${TRUST_PRIOR_MEAN} stars, and each real review pulls the score towards its rating. A network with one 5-star ` +
  `review scores ${trustScore(5, 1).toFixed(2)}; one with a hundred 4-star reviews scores ${trustScore(4, 100).toFixed(2)}, ` +
  `so many consistent reviews count for more than a few enthusiastic ones.`;

export const emptyDistribution = (): RatingDistribution => ({ 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 });

/** Reports one reader may send per window, across reviews. */
export const REVIEW_REPORT_RATE_LIMIT = { limit: 10, windowSeconds: 3600 } as const;
const REPORT_REASONS = ["spam", "fake", "offensive", "conflict-of-interest", "other"] as const;
/** What the report form calls each reason. */
export const REPORT_REASON_LABELS: Record<(typeof REPORT_REASONS)[number], string> = {
  spam: "Spam or advertising",
  fake: "Fake or paid review",
  offensive: "Offensive or abusive",
  "conflict-of-interest": "Written by the network or a competitor",
  other: "Something else",
};
export const REPORT_COMMENT_MAX = 1000;

export const reportInput = z
  .object({
    reason: z.enum(REPORT_REASONS, { error: `Reason must be one of: ${REPORT_REASONS.join(", ")}` }),
    comment: optionalText("Comment", REPORT_COMMENT_MAX),
  })
  .refine((r) => r.reason !== "other" || r.comment, {
    message: "Comment cannot be blank when the reason is other",
    path: ["comment"],
  });

/** The moderation queues: reviews readers reported, reviews the rules held, reviews moderators hid. */
const MODERATION_QUEUES = ["reported", "held", "hidden"] as const;

export const moderationFilter = z.object({
  status: z.enum(MODERATION_QUEUES, { error: `Status must be one of: ${MODERATION_QUEUES.join(", ")}` }),
  page: adminPage,
  // Oldest first by default, so nothing waits forever at the back.
  ...adminSort(["createdAt", "rating", "reportCount", "networkName"], "createdAt"),
});

export const hideInput = z.object({ reason: requiredText("Reason", 500) });

export type ReviewReport = { reason: string; comment: string; createdAt: string };

export type ModeratedReview = {
  id: number;
  networkId: number;
  networkName: string;
  authorId: number;
  authorName: string;
  authorEmail: string;
  rating: number;
  comment: string;
  status: ReviewStatus;
  /** Why a rule held it (held reviews). */
  holdReason: string | null;
  /** Why a moderator hid it (hidden reviews). */
  hiddenReason: string | null;
  moderatedAt: string | null;
  createdAt: string;
  /** Its reports, newest first (the reported queue: those since it was last moderated). */
  reportCount: number;
  reports: ReviewReport[];
};
export type ModerationPage = AdminList<ModeratedReview>;
