// The rules that hold a new or edited review for a moderator instead of
// publishing it, each with the explanation the moderation queue shows. The
// facts are read under the network's row lock, so reviews arriving together
// are judged one after another and a burst cannot slip through in parallel.
import { sql, type Queryable } from "#db/client.ts";

const LINK = /\bhttps?:\/\/|\bwww\./i;
/** A burst: this many reviews of one network from new accounts within the hour. */
const BURST_REVIEWS = 5;

type Facts = { new_account: boolean; recent_from_new: number; published_elsewhere: number };

/**
 * Why the review must wait for a moderator, or null when it may be published.
 * `holdFirstReviews`: an account younger than 7 days with no published review
 * waits for its first one to be checked (throwaway accounts are how fake reviews arrive).
 */
export async function holdReason(
  tx: Queryable,
  review: { networkId: number; userId: number; comment: string },
  rules: { holdFirstReviews: boolean },
): Promise<string | null> {
  if (LINK.test(review.comment)) return "The comment contains a link (http://, https:// or www.).";
  const [facts] = await tx.query<Facts>(sql`
    SELECT (SELECT created_at > now() - interval '7 days' FROM users WHERE id = ${review.userId}) AS new_account,
           (SELECT count(*)::int FROM reviews r JOIN users u ON u.id = r.user_id
            WHERE r.network_id = ${review.networkId} AND r.user_id <> ${review.userId}
              AND r.created_at > now() - interval '1 hour' AND u.created_at > now() - interval '7 days') AS recent_from_new,
           (SELECT count(*)::int FROM reviews WHERE user_id = ${review.userId} AND network_id <> ${review.networkId}
              AND status = 'published') AS published_elsewhere`);
  // Only new accounts' reviews wait during a burst: established reviewers are not held back by it.
  if (facts.new_account && facts.recent_from_new >= BURST_REVIEWS) {
    return `A burst: this network got ${facts.recent_from_new} reviews from accounts younger than 7 days in the last hour.`;
  }
  if (rules.holdFirstReviews && facts.new_account && facts.published_elsewhere === 0) {
    return "The first review of an account younger than 7 days.";
  }
  return null;
}
