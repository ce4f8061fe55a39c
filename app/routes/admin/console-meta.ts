// The tags of every console page: its title, a description, its canonical path, and
// `noindex, nofollow` (staff pages are never listed, nor their links followed).
import { unlistedPageMeta } from "#app/lib/seo.ts";

export const consoleMeta = (args: Parameters<typeof unlistedPageMeta>[0], page: string) =>
  unlistedPageMeta(args, {
    title: `${page} | Console`,
    description: `${page}: a page of the operator console, for staff only.`,
    robots: "noindex, nofollow",
  });
