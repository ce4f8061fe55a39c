// Layout: top ads with footer ad (and the navigation bar every page has).
import { Outlet } from "react-router";
import { FooterAd, TopAds } from "#app/ui/ads/AdRegions.tsx";

export default function TopAdsFooterAdLayout() {
  return (
    <>
      <TopAds />
      <div className="container-oa py-4">
        <Outlet />
      </div>
      <FooterAd />
    </>
  );
}
