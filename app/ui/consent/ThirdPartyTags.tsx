// Loads the site's configured tags, mounted only once the visitor's consent allows
// it (Consent.tsx): page analytics (Google Analytics 4), the social pixel (Meta
// Pixel) and the ad server (Google Publisher Tag; its slots are GptSlot).
import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { TAG_SCRIPTS, type PageTags } from "#contracts/tags.ts";
import { loadGpt } from "./gpt";
import { loadScript } from "./load-script";

type Fbq = ((...args: unknown[]) => void) & {
  queue: unknown[];
  callMethod?: (...args: unknown[]) => void;
  push?: unknown;
  loaded?: boolean;
  version?: string;
};
declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: (...args: unknown[]) => void;
    fbq?: Fbq;
    _fbq?: Fbq;
  }
}

function startAnalytics(id: string) {
  const dataLayer = (window.dataLayer ??= []);
  // gtag queues its arguments object, as Google's snippet does; gtag.js reads the queue.
  window.gtag ??= function gtag() {
    // eslint-disable-next-line prefer-rest-params
    dataLayer.push(arguments);
  };
  window.gtag("js", new Date());
  window.gtag("config", id);
  loadScript(TAG_SCRIPTS.analytics(id));
}

function startPixel(id: string) {
  if (!window.fbq) {
    // Meta's queue: calls wait until fbevents.js takes over `callMethod`.
    const fbq: Fbq = Object.assign(
      (...args: unknown[]) => (fbq.callMethod ? fbq.callMethod(...args) : fbq.queue.push(args)),
      { queue: [] as unknown[], loaded: true, version: "2.0" },
    );
    fbq.push = fbq;
    window.fbq = window._fbq = fbq;
  }
  window.fbq("init", id);
  window.fbq("track", "PageView");
  loadScript(TAG_SCRIPTS.pixel);
}

export function ThirdPartyTags({ tags }: { tags: PageTags | null }) {
  const started = useRef(false);
  useEffect(() => {
    if (!tags || started.current) return;
    started.current = true;
    if (tags.analyticsId) startAnalytics(tags.analyticsId);
    if (tags.pixelId) startPixel(tags.pixelId);
    if (Object.keys(tags.gptSlots).length) loadGpt();
  }, [tags]);

  // Page views after client-side navigation (Analytics counts them itself from the history).
  const { pathname, search } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (tags?.pixelId) window.fbq?.("track", "PageView");
  }, [pathname, search, tags]);
  return null;
}
