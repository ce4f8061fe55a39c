// Turns what a visitor typed into a full-text query over offers.search_document.
//
// The document mixes two dictionaries: 'simple' for the name, network and
// verticals (weights A and B, brand names must not be stemmed) and 'english'
// for the description (weight C). So every word is looked up both ways
// (`simple | english`), and the words are AND-ed. The last word is matched as
// a prefix, because it is usually the one still being typed.
import { sql, type SQL } from "#db/client.ts";

/** Words that carry no meaning in a product search; dropped unless the query is nothing else. */
const STOPWORDS = new Set(
  "a an and are as at be by for from in into is it of on or that the this to with without".split(" "),
);
const MAX_WORDS = 8;
/** Shorter last words are matched exactly: a one-letter prefix would match half the index. */
const MIN_PREFIX = 2;

export type TextQuery = {
  /** The words searched for (normalised like oa_normalize: a–z and 0–9 only). */
  words: string[];
  /** A tsquery expression; constant-folded by the planner, so the GIN index applies. */
  tsquery: SQL;
  /** The original (normalised) text, for trigram matching on offer names. */
  text: string;
};

/** Same rule as the database's oa_normalize: lowercase, a–z 0–9, single spaces. */
function normalizeSearchText(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

export function buildTextQuery(query: string): TextQuery | null {
  const text = normalizeSearchText(query);
  if (!text) return null;
  const all = text.split(" ");
  const meaningful = all.filter((w) => !STOPWORDS.has(w));
  const words = (meaningful.length ? meaningful : all).slice(0, MAX_WORDS);
  const lastTyped = all[all.length - 1];
  const parts = words.map((word, i) => {
    // Words are [a-z0-9]+ only, so they cannot carry tsquery syntax.
    const prefix = i === words.length - 1 && word === lastTyped && word.length >= MIN_PREFIX;
    const term = prefix ? `${word}:*` : word;
    // Most words stem to themselves; asking the index twice for the same prefix doubles its work.
    return sql`(CASE WHEN to_tsquery('english', ${term}) = to_tsquery('simple', ${term}) THEN to_tsquery('simple', ${term})
      ELSE to_tsquery('simple', ${term}) || to_tsquery('english', ${term}) END)`;
  });
  return { words, tsquery: sql`(${sql.join(parts, sql` && `)})`, text };
}
