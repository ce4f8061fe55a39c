// How search engines see a search page (docs/decisions/0025): one canonical
// address per result, written the same way however the visitor's URL spelled
// it, and only the plain searches offered for indexing.
import type { MetaDescriptor } from "react-router";
import { pageMeta, type SeoContext } from "./seo.ts";

/** A variant (another tab, sort, filter or page): crawlers follow its links but do not list it. */
export const NOINDEX_FOLLOW: MetaDescriptor = { name: "robots", content: "noindex, follow" };

/** A search page's address: the page's path and its known parameters, in this order, without empty or default values. */
export type SearchAddress = {
  path: string;
  params: [name: string, value: string | undefined][];
  /** True for a page worth its own entry in search results; a variant is false. */
  indexable: boolean;
};

/** The address written the one way: unknown parameters (utm_*, fbclid, …) are not in `params`, so never in it. */
export function searchPath({ path, params }: SearchAddress): string {
  const query = new URLSearchParams();
  for (const [name, value] of params) if (value) query.set(name, value);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** A search page's tags: canonical at its normalised address, `noindex, follow` on a variant. */
export function searchPageMeta(
  seo: SeoContext | undefined,
  address: SearchAddress,
  page: { title: string; description: string; extra?: MetaDescriptor[] },
): MetaDescriptor[] {
  return pageMeta(seo, {
    ...page,
    path: searchPath(address),
    extra: [...(address.indexable ? [] : [NOINDEX_FOLLOW]), ...(page.extra ?? [])],
  });
}

/** "weight loss" → "Weight loss": a search's words leading a title. */
export const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** " (page 3)" on pages after the first, so each page of a list has its own title. */
export const pageSuffix = (page: number) => (page > 1 ? ` (page ${page})` : "");
