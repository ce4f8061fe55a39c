// Layout: top ads with footer ad (and the navigation bar every page has).
import { TopAdsPage } from "./TopAdsPage";

export default function TopAdsFooterAdLayout() {
  return <TopAdsPage footerAd />;
}
