// An ad slot at its exact size (docs/product.md §9). The box is reserved before any ad
// arrives, so nothing on the page shifts; an empty slot invites advertisers. An ad
// links through its click address (counted, then redirected to its target) and
// reports that it was shown once per page view (docs/decisions/0015-house-ad-impressions-from-the-page.md).
import { useEffect } from "react";
import { useLocation } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { AD_IMPRESSIONS_PATH, adClickPath, type HouseAd } from "#contracts/ads.ts";
import { isWebUrl } from "#app/lib/web-url.ts";

// The slots of one page view report together: one request, sent after the page has rendered.
let shown = new Set<number>();
let sending: ReturnType<typeof setTimeout> | undefined;

function reportShown(id: number) {
  shown.add(id);
  sending ??= setTimeout(() => {
    const ads = [...shown];
    shown = new Set();
    sending = undefined;
    fetch(AD_IMPRESSIONS_PATH, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ads }),
      keepalive: true,
    }).catch(() => {}); // a statistic: a lost report is not worth an error
  }, 0);
}

/** Counts the ad once for every page view it is shown on (a navigation is a new view). */
function useImpression(id: number | undefined) {
  const { key } = useLocation();
  useEffect(() => {
    if (id !== undefined) reportShown(id);
  }, [id, key]);
}

/** `place` names the slot for screen readers ("header banner"), after its visible text. */
export function AdSlot({ size, ad, place }: { size: string; ad?: HouseAd; place?: string }) {
  useImpression(ad?.id);
  const [w, h] = size.split("x").map(Number);
  const small = h <= 90;
  const style = { width: w, maxWidth: "100%", aspectRatio: `${w} / ${h}` };
  const box = "ad-slot relative flex shrink-0 overflow-hidden rounded border text-left";
  if (!ad) {
    return (
      <Link
        to="/advertise"
        style={style}
        data-ad-size={size}
        className={`${box} items-center justify-center border-dashed border-slate-300 bg-slate-50 text-slate-600 hover:border-brand-500 hover:text-brand-700`}
      >
        {/* The visible text is the link's name (WCAG 2.5.3), so voice users can say what they see. */}
        <span className={small ? "text-xs" : "text-sm"}>
          Advertise here <span className="text-slate-500">{size}</span>
          {place && <span className="sr-only"> ({place})</span>}
        </span>
      </Link>
    );
  }
  const content = ad.imageUrl ? (
    <img src={ad.imageUrl} alt={ad.headline} width={w} height={h} className="h-full w-full object-cover" />
  ) : (
    <span className={`flex flex-col justify-center ${small ? "px-2" : "p-3"}`}>
      <span className={`font-semibold text-slate-800 ${small && h < 80 ? "text-xs" : "text-sm"} line-clamp-2`}>
        {ad.headline}
      </span>
      {ad.body && h > 70 && <span className="mt-1 text-xs text-slate-600 line-clamp-3">{ad.body}</span>}
    </span>
  );
  // A plain link: the click address is a server redirect, not a page of the app.
  const external = isWebUrl(ad.targetUrl);
  return (
    <a
      href={adClickPath(ad.id)}
      style={style}
      data-ad-size={size}
      data-ad-id={ad.id}
      className={`${box} border-slate-200 bg-gradient-to-br from-white to-brand-50 hover:border-brand-500`}
      rel={external ? "noopener sponsored nofollow" : "nofollow"}
      target={external ? "_blank" : undefined}
    >
      <span className="absolute right-1 top-0.5 text-[9px] uppercase tracking-wide text-slate-600">Ad</span>
      {content}
    </a>
  );
}
