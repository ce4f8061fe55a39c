// The /links page (GET /api/links): every network, traffic source and offer of a site, page by page.

export type LinkEntry = { id: number; name: string; url: string };
/** One page of the list. */
export type LinksPage = {
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
  networks: LinkEntry[];
  trafficSources: LinkEntry[];
  offers: LinkEntry[];
};
