// Join: records the click (GET /api/networks/{id}/join) and then opens the
// joining link in a new tab. Without JavaScript it is a plain link. Only an
// http(s) address is ever linked: a joining link is typed in by a network.
import type { MouseEvent, ReactNode } from "react";
import { useRouteLoaderData } from "react-router";
import { isWebUrl } from "#app/lib/web-url.ts";

function useSiteId(): string {
  return (useRouteLoaderData("root") as { site?: { id: string } } | undefined)?.site?.id ?? "";
}

export function JoinButton({
  networkId,
  href,
  networkName,
  className = "btn-primary",
  children = "Join",
}: {
  networkId: number;
  href: string | null;
  networkName: string;
  className?: string;
  children?: ReactNode;
}) {
  const siteId = useSiteId();
  if (!isWebUrl(href)) return null;
  const record = (init: RequestInit = {}) =>
    fetch(`/api/networks/${networkId}/join?site=${encodeURIComponent(siteId)}`, {
      headers: { accept: "application/json", "x-site": siteId },
      credentials: "same-origin",
      ...init,
    });

  async function onClick(event: MouseEvent<HTMLAnchorElement>) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      // The browser opens the link itself; the record must outlive this page.
      void record({ keepalive: true }).catch(() => {});
      return;
    }
    event.preventDefault();
    let target = href as string;
    try {
      const res = await record({ signal: AbortSignal.timeout(3000) });
      const body = res.ok ? ((await res.json()) as { joiningLink?: unknown }) : {};
      if (isWebUrl(body.joiningLink)) target = body.joiningLink;
    } catch {
      // Recording failed: the visitor still gets where they wanted to go.
    }
    window.open(target, "_blank", "noopener");
  }

  return (
    <a
      href={href}
      target="_blank"
      rel="noopener sponsored"
      onClick={onClick}
      className={className}
      aria-label={`Join ${networkName} (opens in a new tab)`}
      data-testid="join"
    >
      {children}
    </a>
  );
}
