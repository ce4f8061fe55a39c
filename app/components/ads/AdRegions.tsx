// The ad regions the layouts combine: the top row, the sidebar, the footer banner,
// and the slot beside the search bar.
import { useRouteLoaderData } from "react-router";
import type { AdsBySize } from "#core/ads/ads.ts";
import { AdSlot } from "./AdSlot";

function useAds(): AdsBySize | undefined {
  return useRouteLoaderData<{ ads: AdsBySize }>("root")?.ads;
}

/** The 728x90 header banner over three 270x70 top ads. */
export function TopAds() {
  const ads = useAds();
  return (
    <div className="container-oa flex flex-col items-center gap-2 pt-3" data-region="top-ads">
      <AdSlot size="728x90" ad={ads?.["728x90"][0]} label="Advertise here (header banner)" />
      <div className="flex w-full flex-wrap justify-center gap-2">
        {[0, 1, 2].map((i) => <AdSlot key={i} size="270x70" ad={ads?.["270x70"][i]} />)}
      </div>
    </div>
  );
}

/** One 250x250 and six 125x125 ads. */
export function SidebarAds() {
  const ads = useAds();
  return (
    <div className="flex flex-col items-center gap-2" data-region="sidebar-ads">
      <AdSlot size="250x250" ad={ads?.["250x250"][0]} />
      <div className="grid grid-cols-2 gap-0">
        {[0, 1, 2, 3, 4, 5].map((i) => <AdSlot key={i} size="125x125" ad={ads?.["125x125"][i]} />)}
      </div>
    </div>
  );
}

export function FooterAd() {
  const ads = useAds();
  return (
    <div className="container-oa flex justify-center pt-6" data-region="footer-ad">
      <AdSlot size="728x90" ad={ads?.["728x90"][1]} label="Advertise here (footer banner)" />
    </div>
  );
}

/** The 370x165 slot beside the search bar. */
export function SearchBarAd() {
  const ads = useAds();
  return <AdSlot size="370x165" ad={ads?.["370x165"][0]} />;
}
