// The same product at several networks (docs/decisions/0020): networks spell one
// product's name their own way ("Acme Solar - US (CPL)", "ACME Solar [Mobile]"),
// so listings are matched on a name key with those notes stripped (the database's
// oa_product_name, migration 0017, kept in offers.product_name), then:
// - both listings have a landing domain: the domains must be equal (two brands may
//   share a name, never a domain);
// - either lacks one: their geos must overlap (a name alone is too weak a match).
import { sql, array, type SQL } from "#db/client.ts";

/** What matching reads of the listing whose matches are wanted. */
type ProductListing = { id: number; productName: string; landingDomain: string | null; countries: string[] };

/**
 * The condition on `o` (an offers row) of being the same product as `listing`, the
 * listing itself included. The name key comes first so the product_name index
 * finds the few candidates before the rest is tested.
 */
export function sameProduct(listing: ProductListing): SQL {
  const geos = sql`o.countries && ${array(listing.countries)}::text[]`;
  const domain = listing.landingDomain?.toLowerCase() ?? null;
  const byDomainOrGeos =
    domain === null ? geos : sql`(lower(o.landing_domain) = ${domain} OR (o.landing_domain IS NULL AND ${geos}))`;
  return sql`(o.product_name = ${listing.productName} AND (o.id = ${listing.id} OR ${byDomainOrGeos}))`;
}
