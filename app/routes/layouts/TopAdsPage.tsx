// What the top-ads layouts share: the top ads over the page, and the footer ad under it where the layout has one.
import { Outlet } from "react-router";
import { FooterAd, TopAds } from "#app/ui/ads/AdRegions.tsx";

export function TopAdsPage({ footerAd = false }: { footerAd?: boolean }) {
  return (
    <>
      <TopAds />
      <div className="container-oa py-4">
        <Outlet />
      </div>
      {footerAd && <FooterAd />}
    </>
  );
}
