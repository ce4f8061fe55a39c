// Demo reviews: a few hundred reviewer accounts (they cannot log in: their
// password hash is no argon2 hash) and reviews spread over the networks, each
// network with its own reputation, so ratings, trust scores and distributions
// look like a directory people use. Averages are computed from the rows.
import { sql, type Queryable } from "#db/client.ts";
import type { Random } from "./random.ts";

const FIRST = [
  "Alex",
  "Sam",
  "Jordan",
  "Taylor",
  "Chris",
  "Maria",
  "Ivan",
  "Priya",
  "Lucas",
  "Emma",
  "Noah",
  "Olga",
  "Kenji",
  "Fatima",
  "Diego",
  "Hannah",
  "Mateo",
  "Sofia",
  "Liam",
  "Aisha",
];
const LAST = ["M.", "K.", "R.", "S.", "T.", "B.", "L.", "D.", "P.", "W."];

const PRAISE = [
  "Payments always arrived on time, even early twice.",
  "My affiliate manager answers within the hour and knows the verticals.",
  "Tracking matched my own numbers to within a couple of percent.",
  "Good exclusive offers and they raised my payout after the first month.",
  "Approval took one day and the onboarding call was genuinely useful.",
];
const COMPLAINTS = [
  "Payments were late two months in a row without explanation.",
  "Too many offers get paused without notice while traffic is running.",
  "Scrubbed a noticeable share of my leads and would not show why.",
  "Support replies slowly and the manager changed three times.",
  "The tracking platform lags and postbacks sometimes go missing.",
];
const NEUTRAL = [
  "Decent selection of offers, nothing exceptional.",
  "Payouts are average for the vertical; fine as a backup network.",
  "Minimum payment is a bit high for small affiliates.",
  "Works well for email and native traffic, less so for push.",
];

export type DemoReviewCounts = { reviewers: number; reviews: number };

export async function seedDemoReviews(
  tx: Queryable,
  rng: Random,
  options: { siteId: string; networkIds: number[]; reviews: number; reference: number },
): Promise<DemoReviewCounts> {
  const { networkIds, siteId } = options;
  if (!options.reviews || !networkIds.length) return { reviewers: 0, reviews: 0 };
  const reviewers = Math.max(10, Math.min(400, Math.ceil(options.reviews / 4)));
  const users = Array.from({ length: reviewers }, (_, i) => {
    const name = `${rng.pick(FIRST)} ${rng.pick(LAST)}`;
    const email = `reviewer${i + 1}@demo.offeratlas.example`;
    return { email, email_key: email, name };
  });
  const userIds = (
    await tx.query<{ id: number }>(sql`
      INSERT INTO users (email, email_key, password_hash, name, site_id)
      SELECT email, email_key, '!demo-account-no-login', name, ${siteId}
      FROM jsonb_to_recordset(${JSON.stringify(users)}::jsonb) AS u(email text, email_key text, name text)
      ON CONFLICT (email_key) DO UPDATE SET name = EXCLUDED.name
      RETURNING id`)
  ).map((r) => r.id);

  // Each network has a reputation; a third of the networks get no reviews at all.
  const reputation = new Map(networkIds.map((id) => [id, 1.8 + rng.next() * 3.1]));
  const reviewed = networkIds.filter(() => rng.chance(0.67));
  const seen = new Set<string>();
  const rows: { network_id: number; user_id: number; rating: number; comment: string; created_at: string }[] = [];
  for (let i = 0; i < options.reviews * 3 && rows.length < options.reviews; i++) {
    // Popular networks collect more reviews: square the draw towards the start of the list.
    const networkId = reviewed[Math.floor(rng.next() ** 2 * reviewed.length)];
    const userId = rng.pick(userIds);
    const key = `${networkId}:${userId}`;
    if (networkId === undefined || seen.has(key)) continue; // one review per user per network
    seen.add(key);
    const rating = Math.max(1, Math.min(5, Math.round(reputation.get(networkId)! + (rng.next() - 0.5) * 2.2)));
    const pool = rating >= 4 ? PRAISE : rating <= 2 ? COMPLAINTS : NEUTRAL;
    const comment = rng.sample(pool, rng.int(1, 2)).join(" ");
    const createdAt = new Date(
      options.reference - rng.int(1, 700) * 86_400_000 - rng.int(0, 86_399) * 1000,
    ).toISOString();
    rows.push({ network_id: networkId, user_id: userId, rating, comment, created_at: createdAt });
  }
  await tx.query(sql`
    INSERT INTO reviews (network_id, user_id, site_id, rating, comment, created_at, updated_at)
    SELECT network_id, user_id, ${siteId}, rating, comment, created_at, created_at
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      AS r(network_id bigint, user_id bigint, rating smallint, comment text, created_at timestamptz)`);
  await tx.query(sql`
    UPDATE networks n SET avg_rating = round(s.avg, 2), review_count = s.n
    FROM (SELECT network_id, avg(rating) AS avg, count(*)::int AS n FROM reviews WHERE status = 'published' GROUP BY network_id) s
    WHERE s.network_id = n.id`);
  return { reviewers, reviews: rows.length };
}
