// The connectors by platform: how a source's pages are read and each record is
// mapped. One entry per platform; the sync (core/supply/sync.ts) knows no platform.
import type { SourcePlatform } from "#contracts/supply.ts";
import type { MapResult } from "#core/supply/mapping.ts";
import { affisePages, AFFISE_PAGE_SIZE_MAX, mapAffiseOffer } from "./affise.ts";
import { cakeAffiliateId, cakePages, mapCakeOffer } from "./cake.ts";
import { everflowPages, mapEverflowOffer } from "./everflow.ts";
import { mapFeedOffer } from "./feed.ts";
import { feedPages } from "../feed-read.ts";
import { mapTuneOffer, tunePages, tuneSettings } from "./tune.ts";
import type { HttpPatience } from "./http.ts";

/** What a connector is given to read one source. */
export type SourceAccess = {
  endpoint: string;
  /** The opened credential; null when the source has none (a public feed). */
  apiKey: string | null;
  /** The source's non-secret settings (an affiliate id, a page size, a feed's column mapping). */
  settings: Record<string, unknown>;
  fetch?: typeof fetch;
  http?: HttpPatience;
};

export type Connector = {
  /** Whether a source of this platform cannot be read without an API key. */
  needsApiKey: boolean;
  /** The raw records, one page at a time (never the whole catalogue at once). */
  pages(access: SourceAccess): AsyncIterable<unknown[]>;
  /** One raw record → the directory's offer, or why it is skipped. */
  map(raw: unknown): MapResult;
};

/** A whole number setting within bounds, or undefined (the connector's default). */
export function integerSetting(settings: Record<string, unknown>, name: string, min: number, max: number) {
  const n = Number(settings[name]);
  return Number.isInteger(n) && n >= min && n <= max ? n : undefined;
}

const CONNECTORS: Record<SourcePlatform, Connector> = {
  everflow: {
    needsApiKey: true,
    pages: (a) =>
      everflowPages({
        endpoint: a.endpoint,
        apiKey: a.apiKey ?? "",
        fetch: a.fetch,
        pageSize: integerSetting(a.settings, "page_size", 1, 2000),
        ...a.http,
      }),
    map: mapEverflowOffer,
  },
  tune: {
    needsApiKey: true,
    pages: (a) =>
      tunePages({
        endpoint: a.endpoint,
        apiKey: a.apiKey ?? "",
        fetch: a.fetch,
        ...tuneSettings(a.settings),
        ...a.http,
      }),
    map: (raw) => mapTuneOffer(raw),
  },
  cake: {
    needsApiKey: true,
    pages: (a) =>
      cakePages({
        endpoint: a.endpoint,
        apiKey: a.apiKey ?? "",
        affiliateId: cakeAffiliateId(a.settings),
        fetch: a.fetch,
        pageSize: integerSetting(a.settings, "page_size", 1, 2000),
        ...a.http,
      }),
    map: mapCakeOffer,
  },
  affise: {
    needsApiKey: true,
    pages: (a) =>
      affisePages({
        endpoint: a.endpoint,
        apiKey: a.apiKey ?? "",
        fetch: a.fetch,
        pageSize: integerSetting(a.settings, "page_size", 1, AFFISE_PAGE_SIZE_MAX),
        ...a.http,
      }),
    map: (raw) => mapAffiseOffer(raw),
  },
  feed: {
    needsApiKey: false,
    pages: (a) =>
      feedPages({
        endpoint: a.endpoint,
        apiKey: a.apiKey,
        settings: a.settings,
        fetch: a.fetch,
        pageSize: integerSetting(a.settings, "page_size", 1, 5000),
        ...a.http,
      }),
    map: mapFeedOffer,
  },
};

export function connectorFor(platform: string): Connector | undefined {
  return CONNECTORS[platform as SourcePlatform];
}
