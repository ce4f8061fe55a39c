// Layout: top ads with sidebar.
import { Outlet } from "react-router";
import { TopAds } from "#app/ui/ads/AdRegions.tsx";
import { WithSidebar } from "#app/ui/shell/WithSidebar.tsx";

export default function TopAdsSidebarLayout() {
  return (
    <>
      <TopAds />
      <WithSidebar>
        <Outlet />
      </WithSidebar>
    </>
  );
}
