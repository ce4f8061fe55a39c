// An ad slot at its exact size (docs/product.md §9). The box is reserved before any ad
// arrives, so nothing on the page shifts; an empty slot invites advertisers.
import { Link } from "react-router";
import type { HouseAd } from "#contracts/ads.ts";
import { isWebUrl } from "#app/lib/web-url.ts";

export function AdSlot({ size, ad, label }: { size: string; ad?: HouseAd; label?: string }) {
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
        aria-label={label ?? `Advertise here (${size})`}
        className={`${box} items-center justify-center border-dashed border-slate-300 bg-slate-50 text-slate-500 hover:border-brand-500 hover:text-brand-700`}
      >
        <span className={small ? "text-xs" : "text-sm"}>
          Advertise here <span className="text-slate-400">{size}</span>
        </span>
      </Link>
    );
  }
  const content = (
    <>
      <span className="absolute right-1 top-0.5 text-[9px] uppercase tracking-wide text-slate-400">Ad</span>
      <span className={`flex flex-col justify-center ${small ? "px-2" : "p-3"}`}>
        <span className={`font-semibold text-slate-800 ${small && h < 80 ? "text-xs" : "text-sm"} line-clamp-2`}>
          {ad.headline}
        </span>
        {ad.body && h > 70 && <span className="mt-1 text-xs text-slate-600 line-clamp-3">{ad.body}</span>}
      </span>
    </>
  );
  const cls = `${box} border-slate-200 bg-gradient-to-br from-white to-brand-50 hover:border-brand-500`;
  return isWebUrl(ad.targetUrl) ? (
    <a href={ad.targetUrl} target="_blank" rel="noopener sponsored" style={style} data-ad-size={size} className={cls}>
      {content}
    </a>
  ) : (
    <Link to={ad.targetUrl} style={style} data-ad-size={size} className={cls}>
      {content}
    </Link>
  );
}
