// Layout: top ads only.
import { Outlet } from "react-router";
import { TopAds } from "#app/ui/ads/AdRegions.tsx";

export default function TopAdsLayout() {
  return (
    <>
      <TopAds />
      <div className="container-oa py-4">
        <Outlet />
      </div>
    </>
  );
}
