// Layout: top ads with sidebar.
import { Outlet } from "react-router";
import { TopAds } from "#app/components/ads/AdRegions.tsx";
import { WithSidebar } from "#app/components/shell/WithSidebar.tsx";

export default function TopAdsSidebarLayout() {
  return (
    <>
      <TopAds />
      <WithSidebar><Outlet /></WithSidebar>
    </>
  );
}
