// A feed source's console page (app/routes/admin/source-feed.tsx): an uploaded
// feed file and the column mapping. An upload is kept under DATA_DIR/feeds with a
// name never used before (a sync still reading the previous file is not cut off)
// and becomes the source's endpoint through the sources' own edit, so the change
// is checked, stale edits refused (409) and the audit row written as for any edit.
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Database } from "#db/client.ts";
import { badRequest } from "#core/errors.ts";
import { fieldRefusal } from "#core/networks/editor.ts";
import type { Secrets } from "./secrets.ts";
import { createOfferSources, type SourceEditor } from "./sources.ts";
import { FEED_DELIMITERS, FEED_FORMATS, FEED_UPLOAD_MAX_BYTES, type TemplateField } from "./feed-template.ts";

/** Under DATA_DIR. */
export const FEEDS_DIR = "feeds";

export type FeedUpload = { updatedAt: unknown; filename: string; bytes: Buffer };
export type FeedLayout = {
  updatedAt: unknown;
  /** Template field → the feed's column; empty or the template's own name: not mapped. */
  columns: Partial<Record<TemplateField, string>>;
  format?: string;
  delimiter?: string;
};

const isUtf8 = (bytes: Buffer) => {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
};

export function createFeedFiles(db: Database, secrets: Secrets, dataDir: string) {
  const sources = createOfferSources(db, secrets, { dataDir });
  const dir = path.join(path.resolve(dataDir), FEEDS_DIR);

  async function feedSource(rawId: unknown) {
    const source = await sources.get(rawId);
    if (source.platform !== "feed") throw badRequest("Only feed sources take a feed file or a column mapping");
    return source;
  }

  /** The file a source's endpoint names when it is one of this source's uploads, else undefined. */
  function uploadOf(sourceId: number, endpoint: string): string | undefined {
    if (!endpoint.startsWith("file:")) return undefined;
    const file = fileURLToPath(endpoint);
    const ours = path.dirname(file) === dir && path.basename(file).startsWith(`source-${sourceId}-`);
    return ours ? file : undefined;
  }

  return {
    get: feedSource,

    /** Stores the file and points the source at it; the previous upload is removed once the edit is saved. */
    async upload(editor: SourceEditor, rawId: unknown, file: FeedUpload) {
      const source = await feedSource(rawId);
      const extension = /\.(csv|json)$/i.exec(file.filename)?.[1].toLowerCase();
      if (!file.filename && !file.bytes.length) throw fieldRefusal("file", "Choose a CSV or JSON feed file");
      if (!extension) throw fieldRefusal("file", "The feed file must be a .csv or .json file");
      if (!file.bytes.length) throw fieldRefusal("file", "The feed file is empty");
      if (file.bytes.length > FEED_UPLOAD_MAX_BYTES)
        throw fieldRefusal(
          "file",
          `The feed file must be at most ${FEED_UPLOAD_MAX_BYTES / 1024 / 1024} MB: publish larger feeds at an address`,
        );
      if (!isUtf8(file.bytes)) throw fieldRefusal("file", "The feed file must be UTF-8 text");
      await fs.mkdir(dir, { recursive: true });
      const stored = path.join(dir, `source-${source.id}-${crypto.randomUUID()}.${extension}`);
      await fs.writeFile(stored, file.bytes, { flag: "wx" });
      let saved;
      try {
        saved = await sources.update(editor, source.id, {
          updatedAt: file.updatedAt,
          endpoint: pathToFileURL(stored).href,
        });
      } catch (err) {
        await fs.rm(stored, { force: true });
        throw err;
      }
      const previous = uploadOf(source.id, source.endpoint);
      if (previous && previous !== stored) await fs.rm(previous, { force: true });
      return saved;
    },

    /** Saves the column mapping (none when every field keeps the template's name), format and delimiter. */
    async saveLayout(editor: SourceEditor, rawId: unknown, layout: FeedLayout) {
      const source = await feedSource(rawId);
      const { columns: _columns, format: _format, delimiter: _delimiter, ...kept } = source.settings;
      const mapped = Object.entries(layout.columns)
        .map(([field, column]) => [field, (column ?? "").trim()] as const)
        .filter(([, column]) => column !== "");
      const renamed = mapped.some(([field, column]) => field !== column);
      const settings: Record<string, unknown> = { ...kept };
      if (renamed) settings.columns = Object.fromEntries(mapped);
      if (layout.format && (FEED_FORMATS as readonly string[]).includes(layout.format)) settings.format = layout.format;
      else if (layout.format) throw fieldRefusal("format", `format must be one of ${FEED_FORMATS.join(", ")}`);
      if (layout.delimiter && layout.delimiter !== ",") {
        if (!Object.hasOwn(FEED_DELIMITERS, layout.delimiter))
          throw fieldRefusal("delimiter", 'delimiter must be ",", ";" or a tab');
        settings.delimiter = FEED_DELIMITERS[layout.delimiter] === "\t" ? "tab" : layout.delimiter;
      }
      return sources.update(editor, source.id, { updatedAt: layout.updatedAt, settings });
    },
  };
}
