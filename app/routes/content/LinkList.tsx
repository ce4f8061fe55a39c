// One titled, multi-column list of directory links on the /links page.
import { Link } from "#app/ui/Link.tsx";
import { KeptList } from "#app/ui/KeptList.tsx";
import type { LinkEntry } from "#contracts/links.ts";

export function LinkList({ id, title, entries }: { id: string; title: string; entries: LinkEntry[] }) {
  if (!entries.length) return null;
  return (
    <section aria-labelledby={id} className="mt-5">
      <h2 id={id} className="mb-2 text-lg font-semibold">
        {title}
      </h2>
      {/* Plain links only: kept as the server wrote them when the page loads (KeptList). */}
      <KeptList items={entries} className="columns-1 gap-6 text-sm sm:columns-2 lg:columns-3">
        {(e) => (
          <li key={e.url} className="break-inside-avoid py-0.5">
            <Link to={e.url} className="link">
              {e.name}
            </Link>
          </li>
        )}
      </KeptList>
    </section>
  );
}
