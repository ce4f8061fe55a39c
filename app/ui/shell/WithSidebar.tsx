import type { ReactNode } from "react";
import { SidebarAds } from "#app/ui/ads/AdRegions.tsx";

/** Content beside a 250 px sidebar; below 991 px the sidebar moves under the content. */
export function WithSidebar({ children, sidebar }: { children: ReactNode; sidebar?: ReactNode }) {
  return (
    <div className="container-oa grid gap-4 py-4 lg:grid-cols-[minmax(0,1fr)_250px]">
      <div className="min-w-0">{children}</div>
      <aside aria-label="Sidebar" className="flex flex-col gap-4">
        {sidebar}
        <SidebarAds />
      </aside>
    </div>
  );
}
