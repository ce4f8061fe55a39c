// Editorial pages (FAQ, privacy, terms) are Markdown files under content/, so
// editors change them with a pull request. They are trusted repository text,
// rendered to HTML once per file change.
import fs from "node:fs/promises";
import path from "node:path";
import { Marked, type Token, type Tokens } from "marked";
import type { ContentPage, Faq, FaqSection } from "#contracts/content.ts";

const CONTENT_DIR = path.resolve(import.meta.dirname, "..", "..", "content");

const PAGES = new Set(["privacy", "terms"]);
const marked = new Marked({ gfm: true, async: false });

const slugify = (s: string) =>
  s
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80);

const render = (tokens: Token[]) => marked.parser(tokens);
const plain = (tokens: Token[]) =>
  tokens
    .map((t) => ("text" in t && typeof t.text === "string" ? t.text : t.raw))
    .join(" ")
    .replace(/\[([^\]]+)\]\([^)]+\)/g, "$1")
    .replace(/[*_`]/g, "")
    .replace(/\s+/g, " ")
    .trim();

// The first paragraph after the title doubles as the page's meta description.
const summary = (tokens: Token[]) => {
  const p = tokens.find((t): t is Tokens.Paragraph => t.type === "paragraph");
  const text = p ? plain([p]) : "";
  return text.length > 160 ? `${text.slice(0, 157).replace(/\s+\S*$/, "")}…` : text;
};

function parsePage(slug: string, source: string): ContentPage {
  const tokens = marked.lexer(source);
  const h1 = tokens.findIndex((t) => t.type === "heading" && (t as Tokens.Heading).depth === 1);
  const title = h1 >= 0 ? (tokens[h1] as Tokens.Heading).text : slug;
  const body = h1 >= 0 ? [...tokens.slice(0, h1), ...tokens.slice(h1 + 1)] : tokens;
  return { slug, title, description: summary(body), html: render(Object.assign(body, { links: tokens.links })) };
}

/** `# Title`, an intro, then `## Section` groups of `### Question` + answer. */
function parseFaq(source: string): Faq {
  const tokens = marked.lexer(source);
  const faq: Faq = { title: "Frequently asked questions", description: "", introHtml: "", sections: [] };
  const intro: Token[] = [];
  let section: FaqSection | undefined;
  let item: { question: string; body: Token[] } | undefined;
  const used = new Set<string>();
  const closeItem = () => {
    if (!item || !section) return;
    let id = slugify(item.question) || "question";
    for (let n = 2; used.has(id); n++) id = `${slugify(item.question)}-${n}`;
    used.add(id);
    const body = Object.assign(item.body, { links: tokens.links });
    section.items.push({ id, question: item.question, answerHtml: render(body), answerText: plain(item.body) });
    item = undefined;
  };
  for (const t of tokens) {
    if (t.type === "heading") {
      const h = t as Tokens.Heading;
      if (h.depth === 1) {
        faq.title = h.text;
        continue;
      }
      if (h.depth === 2) {
        closeItem();
        section = { title: h.text, items: [] };
        faq.sections.push(section);
        continue;
      }
      if (h.depth === 3) {
        closeItem();
        if (!section) {
          section = { title: "General", items: [] };
          faq.sections.push(section);
        }
        item = { question: h.text, body: [] };
        continue;
      }
    }
    if (item) item.body.push(t);
    else if (!section) intro.push(t);
  }
  closeItem();
  faq.introHtml = render(Object.assign(intro, { links: tokens.links }));
  faq.description = summary(intro);
  return faq;
}

export function createContentService(dir = CONTENT_DIR) {
  const cache = new Map<string, { mtimeMs: number; value: unknown }>();
  async function load<T>(file: string, parse: (source: string) => T): Promise<T> {
    const full = path.join(dir, file);
    const stat = await fs.stat(full);
    const hit = cache.get(file);
    if (hit && hit.mtimeMs === stat.mtimeMs) return hit.value as T;
    const value = parse(await fs.readFile(full, "utf8"));
    cache.set(file, { mtimeMs: stat.mtimeMs, value });
    return value;
  }
  return {
    faq: () => load("faq.md", parseFaq),
    /** privacy or terms; anything else is not a content page. */
    page(slug: string): Promise<ContentPage> {
      if (!PAGES.has(slug)) throw new Error(`No content page ${slug}`);
      return load(`${slug}.md`, (s) => parsePage(slug, s));
    },
  };
}
