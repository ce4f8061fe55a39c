// The published offer feed template (docs/supply/feeds.md, public/offer-feed-template.csv):
// its columns are a contract that scripts outside the repository rely on, so they
// never change. A feed laid out differently names, per template field, the column
// (for JSON: the key) holding it in the source's `settings.columns`; fields it does
// not name are read from the column of the template's own name.

export const TEMPLATE_FIELDS = [
  "external_id",
  "name",
  "description",
  "payout",
  "payout_type",
  "currency",
  "countries",
  "verticals",
  "preview_url",
  "mobile",
  "pay_per_call",
] as const;
export type TemplateField = (typeof TEMPLATE_FIELDS)[number];

/** Without these an offer cannot be listed, so a column mapping must name them all. */
export const REQUIRED_FIELDS: readonly TemplateField[] = ["external_id", "name", "payout", "payout_type", "currency"];

export const FEED_FORMATS = ["csv", "json"] as const;
export type FeedFormat = (typeof FEED_FORMATS)[number];

/** Field separators a CSV feed may use (settings.delimiter); "tab" is accepted for "\t". */
export const FEED_DELIMITERS: Record<string, string> = { ",": ",", ";": ";", "\t": "\t", tab: "\t" };

/**
 * The largest uploaded feed: it arrives in one page form post, which the server
 * bounds at 5 MB (FORM_BODY_LIMITS.multipart, server/plugins/react-router.ts).
 * Larger feeds are published at an address, which is streamed whatever its size.
 */
export const FEED_UPLOAD_MAX_BYTES = 4 * 1024 * 1024;

/** Longest column name a mapping may give. */
const COLUMN_NAME_MAX = 200;

const isTemplateField = (name: string): name is TemplateField => (TEMPLATE_FIELDS as readonly string[]).includes(name);

/** Template field → the feed's column, for every field (unmapped ones keep the template's name). */
export function columnsOf(settings: Record<string, unknown>): Record<TemplateField, string> {
  const given =
    typeof settings.columns === "object" && settings.columns !== null
      ? (settings.columns as Record<string, unknown>)
      : {};
  const columns = {} as Record<TemplateField, string>;
  for (const field of TEMPLATE_FIELDS) {
    const column = given[field];
    columns[field] = typeof column === "string" && column.trim() ? column.trim() : field;
  }
  return columns;
}

/**
 * Why a feed source's settings cannot be saved, or undefined. Checked when a
 * feed source is added or edited (core/supply/sources.ts), so a sync never
 * meets a mapping it cannot follow.
 */
export function feedSettingsProblem(settings: Record<string, unknown>): string | undefined {
  const { columns, format, delimiter } = settings;
  if (format !== undefined && !(FEED_FORMATS as readonly unknown[]).includes(format))
    return `settings.format must be one of ${FEED_FORMATS.join(", ")}`;
  if (delimiter !== undefined && (typeof delimiter !== "string" || !Object.hasOwn(FEED_DELIMITERS, delimiter)))
    return 'settings.delimiter must be ",", ";" or a tab';
  if (columns === undefined) return undefined;
  if (typeof columns !== "object" || columns === null || Array.isArray(columns))
    return "settings.columns must map template fields to the feed's column names";
  const entries = Object.entries(columns);
  const unknown = entries.map(([field]) => field).filter((field) => !isTemplateField(field));
  if (unknown.length)
    return `settings.columns names unknown template field${unknown.length === 1 ? "" : "s"} ${unknown.slice(0, 5).join(", ")}; the fields are ${TEMPLATE_FIELDS.join(", ")}`;
  for (const [field, column] of entries) {
    if (typeof column !== "string" || !column.trim() || column.length > COLUMN_NAME_MAX)
      return `settings.columns.${field} must be a column name of 1 to ${COLUMN_NAME_MAX} characters`;
  }
  const missing = REQUIRED_FIELDS.filter((field) => !Object.hasOwn(columns, field));
  if (missing.length)
    return `settings.columns must name the column of every required field; missing: ${missing.join(", ")}`;
  const used = entries.map(([, column]) => (column as string).trim());
  if (new Set(used).size !== used.length) return "settings.columns must give each template field its own column";
  return undefined;
}
