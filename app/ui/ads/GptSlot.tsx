// A slot the ad server fills (Google Publisher Tag), at its exact size like every
// slot (docs/product.md §9). Only where the site configured an ad unit for the size
// and the visitor's consent allows it; otherwise the house ad stays (AdRegions).
import { useEffect, useId, useRef, type ReactNode } from "react";
import type { AdSize } from "#contracts/ads.ts";
import { useGptAdUnit } from "#app/ui/consent/Consent.tsx";
import { gptCommand, type GptSlot as AdServerSlot } from "#app/ui/consent/gpt.ts";

function GptSlot({ size, adUnitPath }: { size: AdSize; adUnitPath: string }) {
  const [w, h] = size.split("x").map(Number);
  // GPT finds the slot's box by its element id; useId keeps it unique on the page. The
  // effect reads the id from the element: a server-rendered one keeps the server's id,
  // which the browser's renderer would number differently (docs/decisions/0035).
  const elementId = `gpt-${size}-${useId().replace(/[^A-Za-z0-9_-]/g, "")}`;
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let slot: AdServerSlot | null = null;
    const boxId = box.current?.id;
    if (!boxId) return;
    gptCommand((googletag) => {
      slot = googletag.defineSlot(adUnitPath, [w, h], boxId);
      if (!slot) return;
      slot.addService(googletag.pubads());
      googletag.display(boxId);
    });
    return () =>
      gptCommand((googletag) => {
        if (slot) googletag.destroySlots([slot]);
      });
  }, [adUnitPath, w, h]);
  return (
    <div
      ref={box}
      id={elementId}
      data-ad-size={size}
      data-ad-unit={adUnitPath}
      style={{ width: w, height: h, maxWidth: "100%" }}
      className="ad-slot shrink-0 overflow-hidden"
    />
  );
}

/** The ad server's slot for `size` when it may fill it, else `children` (the house ad). */
export function AdServerOr({ size, children }: { size: AdSize; children: ReactNode }) {
  const adUnitPath = useGptAdUnit(size);
  return adUnitPath ? <GptSlot size={size} adUnitPath={adUnitPath} /> : children;
}
