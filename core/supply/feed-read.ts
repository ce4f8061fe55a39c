// Reading an offer feed (docs/supply/feeds.md): the file behind a source's
// endpoint — an http(s) address, or a file:// URL inside the data directory
// (an upload, core/supply/feed-files.ts) — as records keyed by template field,
// one page at a time. A CSV feed is parsed as it arrives (csv-parse's streaming
// parser, docs/decisions/0019), so no feed is ever held whole; a JSON feed
// cannot be parsed in pieces and is read whole, up to JSON_FEED_MAX_BYTES.
import fs from "node:fs";
import path from "node:path";
import { Readable, pipeline } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { fileURLToPath } from "node:url";
import { parse } from "csv-parse";
import { isObject, platformGet, PlatformError, type HttpPatience } from "./platforms/http.ts";
import { columnsOf, FEED_DELIMITERS, REQUIRED_FIELDS, type FeedFormat, type TemplateField } from "./feed-template.ts";

export type FeedOptions = HttpPatience & {
  endpoint: string;
  /** Sent as `Authorization: Bearer <key>` when the source has one. */
  apiKey: string | null;
  settings: Record<string, unknown>;
  pageSize?: number;
  fetch?: typeof fetch;
};

/** One offer of the feed: its values under the template's field names (absent columns undefined). */
export type FeedRecord = Partial<Record<TemplateField, unknown>>;

/** A JSON feed is parsed whole: larger ones are refused (publish those as CSV). */
export const JSON_FEED_MAX_BYTES = 50 * 1024 * 1024;
/** The longest CSV record: a quote that never closes fails here instead of swallowing the file. */
export const CSV_RECORD_MAX_BYTES = 256 * 1024;
/**
 * The timeout of a feed's download covers the whole body, which is read at the
 * pace of the sync's writes: far longer than an API page's.
 */
export const FEED_TIMEOUT_MS = 15 * 60_000;
const PAGE_SIZE = 500;

type Opened = { body: Readable; bytes: number | undefined; format: FeedFormat };

const tooLarge = () =>
  new PlatformError(`The JSON feed is larger than ${JSON_FEED_MAX_BYTES / 1024 / 1024} MB: publish it as CSV`);

/** "csv" or "json": the source's setting, else the file's extension, else the answer's content type, else CSV. */
function formatOf(settings: Record<string, unknown>, pathname: string, contentType: string | null): FeedFormat {
  if (settings.format === "csv" || settings.format === "json") return settings.format;
  const extension = path.posix.extname(pathname).toLowerCase();
  if (extension === ".json") return "json";
  if (extension === ".csv" || extension === ".tsv" || extension === ".txt") return "csv";
  return contentType && /\bjson\b/i.test(contentType) ? "json" : "csv";
}

async function openFile(url: URL, settings: Record<string, unknown>): Promise<Opened> {
  const file = fileURLToPath(url);
  let bytes: number;
  try {
    const stat = await fs.promises.stat(file);
    if (!stat.isFile()) throw new PlatformError(`The feed file ${path.basename(file)} is not a file`);
    bytes = stat.size;
  } catch (err) {
    if (err instanceof PlatformError) throw err;
    throw new PlatformError(`The feed file ${path.basename(file)} cannot be read: upload the feed again`);
  }
  const format = formatOf(settings, url.pathname, null);
  if (format === "json" && bytes > JSON_FEED_MAX_BYTES) throw tooLarge();
  return { body: fs.createReadStream(file), bytes, format };
}

async function openUrl(url: URL, o: FeedOptions): Promise<Opened> {
  const res = await platformGet({
    ...o,
    timeoutMs: o.timeoutMs ?? FEED_TIMEOUT_MS,
    platform: "The feed",
    what: "the feed file",
    url,
    headers: {
      Accept: "text/csv, application/json;q=0.9, */*;q=0.5",
      ...(o.apiKey ? { Authorization: `Bearer ${o.apiKey}` } : {}),
    },
    credential: o.apiKey ? "the API key" : "the request without an API key",
    authHint: o.apiKey
      ? "check the source's API key (sent as a Bearer token)."
      : "if the feed needs a key, add it to the source as its API key (sent as a Bearer token).",
  });
  if (!res.body) throw new PlatformError("The feed answered without a file");
  const length = Number(res.headers.get("content-length"));
  return {
    body: Readable.fromWeb(res.body as WebReadableStream<Uint8Array>),
    bytes: Number.isFinite(length) && length > 0 ? length : undefined,
    format: formatOf(o.settings, url.pathname, res.headers.get("content-type")),
  };
}

function open(o: FeedOptions): Promise<Opened> {
  let url: URL;
  try {
    url = new URL(o.endpoint);
  } catch {
    throw new PlatformError("The feed's endpoint is not an address");
  }
  // The endpoint was checked when it was saved (core/supply/sources.ts): a file is inside the data directory.
  if (url.protocol === "file:") return openFile(url, o.settings);
  if (url.protocol === "http:" || url.protocol === "https:") return openUrl(url, o);
  throw new PlatformError("The feed's endpoint must be an http(s) address or an uploaded file");
}

/** A raw row (CSV: by header; JSON: by key) under the template's field names. */
function renamer(settings: Record<string, unknown>) {
  const columns = Object.entries(columnsOf(settings)) as [TemplateField, string][];
  return (row: Record<string, unknown>): FeedRecord => {
    const record: FeedRecord = {};
    for (const [field, column] of columns) if (Object.hasOwn(row, column)) record[field] = row[column];
    return record;
  };
}

/** A read that stopped midway, as the run's error. */
function readFailure(err: unknown): PlatformError {
  if (err instanceof PlatformError) return err;
  const e = err as Error & { code?: string };
  if (typeof e.code === "string" && e.code.startsWith("CSV_"))
    return new PlatformError(`The feed is not valid CSV: ${e.message}`);
  const reason = e.name === "TimeoutError" || e.name === "AbortError" ? "timed out" : e.message;
  return new PlatformError(`The feed could not be read to the end (${reason})`);
}

/**
 * CSV rows as records. Quotes inside an unquoted field are kept as text and
 * short or long rows are passed on (the mapper says what is missing); anything
 * that loses the parser its place (a quote never closed, a record over
 * CSV_RECORD_MAX_BYTES) fails the run rather than misreading, or silently
 * dropping, every row after it — a run that ends early would retire offers.
 */
async function* csvRecords(body: Readable, settings: Record<string, unknown>): AsyncGenerator<FeedRecord> {
  const delimiter = typeof settings.delimiter === "string" ? (FEED_DELIMITERS[settings.delimiter] ?? ",") : ",";
  const columns = columnsOf(settings);
  let header: string[] = [];
  const parser = parse({
    bom: true,
    delimiter,
    columns: (names: string[]) => (header = names.map((n) => String(n).trim())),
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: CSV_RECORD_MAX_BYTES,
  });
  // pipeline ends the file (or the download) when the parser stops, and passes its faults on to it.
  pipeline(body, parser, () => {});
  const rename = renamer(settings);
  // A header without the required columns would skip every row, and a run that
  // reads no offer retires the catalogue: such a feed fails instead.
  let checked = false;
  const checkHeader = () => {
    if (!header.length) throw new PlatformError("The feed is empty: it has no header line");
    const missing = REQUIRED_FIELDS.filter((f) => !header.includes(columns[f]));
    if (missing.length)
      throw new PlatformError(
        `The feed's header has no column ${missing.map((f) => `"${columns[f]}"`).join(", ")} (${missing.join(", ")}): fix the feed or the source's column mapping`,
      );
    checked = true;
  };
  try {
    for await (const row of parser as AsyncIterable<Record<string, unknown>>) {
      if (!checked) checkHeader();
      yield rename(row);
    }
    if (!checked) checkHeader();
  } catch (err) {
    throw readFailure(err);
  } finally {
    parser.destroy();
  }
}

/** The file whole, refused past JSON_FEED_MAX_BYTES whatever its length header said. */
async function boundedText(body: Readable, bytes: number | undefined): Promise<string> {
  if (bytes !== undefined && bytes > JSON_FEED_MAX_BYTES) {
    body.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > JSON_FEED_MAX_BYTES) throw tooLarge();
      chunks.push(chunk);
    }
  } catch (err) {
    throw readFailure(err);
  } finally {
    body.destroy();
  }
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/^\uFEFF/, "");
}

/** A JSON feed's offers: an array of objects, or `{ "offers": [...] }`. */
async function* jsonRecords(opened: Opened, settings: Record<string, unknown>): AsyncGenerator<unknown> {
  const text = await boundedText(opened.body, opened.bytes);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new PlatformError("The feed is not valid JSON");
  }
  const offers = Array.isArray(body) ? body : isObject(body) ? body.offers : undefined;
  if (!Array.isArray(offers)) throw new PlatformError('The JSON feed must be a list of offers or { "offers": [...] }');
  const rename = renamer(settings);
  // A record that is not an object reaches the mapper as it is, which skips it.
  for (const offer of offers) yield isObject(offer) ? rename(offer) : offer;
}

/** The feed's offers under the template's field names, `pageSize` at a time. */
export async function* feedPages(options: FeedOptions): AsyncGenerator<unknown[]> {
  const pageSize = options.pageSize ?? PAGE_SIZE;
  const opened = await open(options);
  const records =
    opened.format === "json" ? jsonRecords(opened, options.settings) : csvRecords(opened.body, options.settings);
  let page: unknown[] = [];
  for await (const record of records) {
    page.push(record);
    if (page.length >= pageSize) {
      yield page;
      page = [];
    }
  }
  if (page.length) yield page;
}
