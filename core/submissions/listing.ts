// The listing an approved submission makes: a new network, or the existing one it
// matches (the same name, whatever the case, or the same website host) brought up
// to date. Either way the network is active and listed on the submission's site,
// so /networks, its page and the sitemap show it. Runs inside the approval's
// transaction.
import { sql, array, type Queryable } from "#db/client.ts";
import type { SubmissionDetails } from "#contracts/submissions.ts";

/** What the audit log keeps of a network before and after an approval. */
export type NetworkSnapshot = {
  id: number;
  slug: string;
  name: string;
  status: string;
  description: string;
  website: string | null;
  logoUrl: string | null;
  paymentTerms: string | null;
  paymentMethods: string[];
  minimumPayment: number | null;
  trackingPlatform: string | null;
  commissionTypes: string[];
  listedOnSite: boolean;
};

/** The submission as it reaches the listing. */
export type ListingSource = { name: string; details: SubmissionDetails; siteId: string; logoUrl: string | null };

const hasScheme = (url: string) => /^[a-z][a-z0-9+.-]*:/i.test(url);

/** The website as a full address (the form accepts "example.com" too). */
function websiteUrl(website: string | undefined): string | null {
  const v = website?.trim();
  return v ? (hasScheme(v) ? v : `https://${v}`) : null;
}

/** The website's host, lowercased and without "www.": how two addresses of one network compare. */
function websiteHost(website: string | null | undefined): string | null {
  const url = websiteUrl(website ?? undefined);
  if (!url) return null;
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, "") || null;
  } catch {
    return null;
  }
}

/** The same rule in SQL, for the networks already stored. */
const storedHost = sql`
  regexp_replace(substring(lower(n.website) from '^(?:[a-z][a-z0-9+.-]*://)?(?:[^/?#@]*@)?([^/?#:]+)'), '^www\\.', '')`;

function slugify(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 100)
    .replace(/-+$/, "");
}

async function snapshot(tx: Queryable, id: number, siteId: string): Promise<NetworkSnapshot> {
  const [row] = await tx.query<NetworkSnapshot>(sql`
    SELECT n.id, n.slug, n.name, n.status, n.description, n.website, n.logo_url AS "logoUrl",
           n.payment_terms AS "paymentTerms", n.payment_methods AS "paymentMethods",
           n.minimum_payment AS "minimumPayment", n.tracking_platform AS "trackingPlatform",
           n.commission_types AS "commissionTypes",
           EXISTS (SELECT 1 FROM network_properties p WHERE p.network_id = n.id AND p.identifier = ${siteId})
             AS "listedOnSite"
    FROM networks n WHERE n.id = ${id}`);
  return row;
}

/** The network a submission names: the same name first, else the same website host; locked for the update. */
async function findMatch(tx: Queryable, source: ListingSource): Promise<number | null> {
  const host = websiteHost(source.details.website);
  const name = source.name.trim();
  const [row] = await tx.query<{ id: number }>(sql`
    SELECT n.id FROM networks n
    WHERE lower(n.name) = lower(${name}) ${host ? sql`OR ${storedHost} = ${host}` : sql``}
    ORDER BY (lower(n.name) = lower(${name})) DESC, n.id
    LIMIT 1
    FOR UPDATE`);
  return row?.id ?? null;
}

/** Inserts the network under the first free slug of its name (name-2, name-3 … when taken). */
async function insertNetwork(tx: Queryable, source: ListingSource): Promise<number> {
  const d = source.details;
  const base = slugify(source.name) || "network";
  const taken = new Set(
    (
      await tx.query<{ slug: string }>(
        sql`SELECT slug FROM networks WHERE slug = ${base} OR slug LIKE ${`${base.replace(/[\\%_]/g, "\\$&")}-%`}`,
      )
    ).map((r) => r.slug),
  );
  for (let n = 1; ; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    if (taken.has(slug)) continue;
    // Another approval may take the slug between the look and the insert: then try the next.
    const [row] = await tx.query<{ id: number }>(sql`
      INSERT INTO networks (slug, name, description, logo_url, website, payment_terms, payment_methods,
                            minimum_payment, tracking_platform, commission_types, status)
      VALUES (${slug}, ${source.name.trim()}, ${d.description ?? ""}, ${source.logoUrl}, ${websiteUrl(d.website)},
              ${d.paymentFrequency ?? null}, ${array(d.paymentMethods ?? [])}::text[], ${d.minimumPayment ?? null},
              ${d.trackingPlatform ?? null}, ${array(d.commissionTypes ?? [])}::text[], 'active')
      ON CONFLICT (slug) DO NOTHING
      RETURNING id`);
    if (row) return row.id;
    taken.add(slug);
  }
}

/**
 * Brings the matched network up to date from the submission. Its name and slug stay (old links and
 * the name readers know); a field the submission left empty keeps its value, and so does the logo
 * when the submission has none.
 */
async function updateNetwork(tx: Queryable, id: number, source: ListingSource): Promise<void> {
  const d = source.details;
  await tx.query(sql`
    UPDATE networks SET
      description = coalesce(nullif(${d.description ?? ""}, ''), description),
      website = coalesce(${websiteUrl(d.website)}, website),
      logo_url = coalesce(${source.logoUrl}, logo_url),
      payment_terms = coalesce(${d.paymentFrequency ?? null}, payment_terms),
      payment_methods = CASE WHEN cardinality(${array(d.paymentMethods ?? [])}::text[]) > 0
                             THEN ${array(d.paymentMethods ?? [])}::text[] ELSE payment_methods END,
      minimum_payment = coalesce(${d.minimumPayment ?? null}, minimum_payment),
      tracking_platform = coalesce(${d.trackingPlatform ?? null}, tracking_platform),
      commission_types = CASE WHEN cardinality(${array(d.commissionTypes ?? [])}::text[]) > 0
                              THEN ${array(d.commissionTypes ?? [])}::text[] ELSE commission_types END,
      status = 'active',
      updated_at = now()
    WHERE id = ${id}`);
}

/** Creates or updates the listing; answers the network before (null when created) and after. */
export async function listSubmittedNetwork(
  tx: Queryable,
  source: ListingSource,
): Promise<{ before: NetworkSnapshot | null; after: NetworkSnapshot }> {
  const matched = await findMatch(tx, source);
  const before = matched === null ? null : await snapshot(tx, matched, source.siteId);
  const id = matched ?? (await insertNetwork(tx, source));
  if (matched !== null) await updateNetwork(tx, matched, source);
  // Listed on the submission's site; a listing it already has keeps its joining link and paid flag.
  await tx.query(sql`
    INSERT INTO network_properties (network_id, identifier) VALUES (${id}, ${source.siteId})
    ON CONFLICT (network_id, identifier) DO NOTHING`);
  return { before, after: await snapshot(tx, id, source.siteId) };
}
