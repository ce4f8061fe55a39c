// The ad regions the layouts combine: the top row, the sidebar, the footer banner,
// and the slot beside the search bar.
import { useRouteLoaderData } from "react-router";
import type { AdSize, AdsBySize } from "#contracts/ads.ts";
import { AdSlot } from "./AdSlot";
import { AdServerOr } from "./GptSlot";

function useAds(): AdsBySize | undefined {
  return useRouteLoaderData<{ ads: AdsBySize }>("root")?.ads;
}

/** One large ad over a group of small ones (the top row, the sidebar); empty slots invite advertisers. */
function AdStack({
  region,
  className,
  lead,
  rest,
}: {
  region: string;
  className: string;
  lead: { size: AdSize; place?: string };
  rest: { size: AdSize; count: number; className: string };
}) {
  const ads = useAds();
  return (
    <div className={className} data-region={region}>
      <AdServerOr size={lead.size}>
        <AdSlot size={lead.size} ad={ads?.[lead.size][0]} place={lead.place} />
      </AdServerOr>
      <div className={rest.className}>
        {Array.from({ length: rest.count }, (_, i) => (
          <AdServerOr key={i} size={rest.size}>
            <AdSlot size={rest.size} ad={ads?.[rest.size][i]} />
          </AdServerOr>
        ))}
      </div>
    </div>
  );
}

/** The 728x90 header banner over three 270x70 top ads. */
export const TopAds = () => (
  <AdStack
    region="top-ads"
    className="container-oa flex flex-col items-center gap-2 pt-3"
    lead={{ size: "728x90", place: "header banner" }}
    rest={{ size: "270x70", count: 3, className: "flex w-full flex-wrap justify-center gap-2" }}
  />
);

/** One 250x250 and six 125x125 ads. */
export const SidebarAds = () => (
  <AdStack
    region="sidebar-ads"
    className="flex flex-col items-center gap-2"
    lead={{ size: "250x250" }}
    rest={{ size: "125x125", count: 6, className: "grid grid-cols-2 gap-0" }}
  />
);

export function FooterAd() {
  const ads = useAds();
  return (
    <div className="container-oa flex justify-center pt-6" data-region="footer-ad">
      <AdServerOr size="728x90">
        <AdSlot size="728x90" ad={ads?.["728x90"][1]} place="footer banner" />
      </AdServerOr>
    </div>
  );
}

/** The 370x165 slot beside the search bar. */
export function SearchBarAd() {
  const ads = useAds();
  return (
    <AdServerOr size="370x165">
      <AdSlot size="370x165" ad={ads?.["370x165"][0]} />
    </AdServerOr>
  );
}
