// The connectors by platform: how a source's pages are read and each record is
// mapped. One entry per platform; the sync (core/supply/sync.ts) knows no platform.
import type { SourcePlatform } from "#contracts/supply.ts";
import type { MapResult } from "#core/supply/mapping.ts";
import { everflowPages, mapEverflowOffer } from "./everflow.ts";
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

const CONNECTORS: Partial<Record<SourcePlatform, Connector>> = {
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
};

export function connectorFor(platform: string): Connector | undefined {
  return CONNECTORS[platform as SourcePlatform];
}
