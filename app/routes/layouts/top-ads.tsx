// Layout: top ads only.
import { TopAdsPage } from "./TopAdsPage";

export default function TopAdsLayout() {
  return <TopAdsPage />;
}
