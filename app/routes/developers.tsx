// /developers (issue #14): how to use the public read API, and its OpenAPI document
// rendered by Swagger UI. Swagger UI is served from our own origin (server/plugins/
// api-docs.ts) and started from this module, so the page needs no inline script and
// no CDN within the Content-Security-Policy (docs/decisions/0022-swagger-ui-self-hosted.md).
import { useEffect, useRef, useState } from "react";
import { Link } from "#app/ui/Link.tsx";
import { requestContext } from "#app/context.ts";
import { breadcrumbs, pageMeta } from "#app/lib/seo.ts";
import { OPENAPI_PATH, SWAGGER_UI_PREFIX, V1_DEFAULT_LIMIT, V1_MAX_LIMIT } from "#contracts/v1-docs.ts";
import type { Route } from "./+types/developers";
import contrastHref from "./developers.css?url";

type SwaggerUIBundle = (options: {
  url: string;
  domNode: HTMLElement;
  validatorUrl: null;
  deepLinking: boolean;
  onComplete: () => void;
}) => unknown;

declare global {
  interface Window {
    SwaggerUIBundle?: SwaggerUIBundle;
  }
}

// Swagger UI's own stylesheet (30 KB compressed) comes with its script (useSwaggerUi), not here:
// in the head it held up the page's first paint for a reference below the fold. The contrast
// fixes are small, and their `#swagger-ui` selectors outrank Swagger UI's whatever the order.
export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: contrastHref }];

export async function loader({ context }: Route.LoaderArgs) {
  const { services, site } = context.get(requestContext);
  return { seo: { origin: services.seo.origin(site), siteName: site.name } };
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta(loaderData?.seo, {
    title: "Developers: the OfferAtlas API",
    description:
      "Read offers, networks, traffic sources and verticals with an API key: authentication, limits, paging.",
    path: "/developers",
    extra: breadcrumbs(loaderData?.seo, [{ name: "Developers", path: "/developers" }]),
  });

/**
 * Loads Swagger UI's script and stylesheet once (same-origin files, allowed by script-src and
 * style-src 'self') and renders the document once both are in.
 */
function useSwaggerUi(target: React.RefObject<HTMLDivElement | null>): "loading" | "ready" | "failed" {
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");
  useEffect(() => {
    const render = () => {
      if (!target.current || !window.SwaggerUIBundle) return setState("failed");
      const domNode = target.current;
      window.SwaggerUIBundle({
        url: OPENAPI_PATH,
        domNode,
        validatorUrl: null,
        deepLinking: false,
        // Swagger UI draws its operations in a <main> of its own: inside our page's <main> it
        // would be a second main landmark, so it becomes a named region of ours.
        // Its headings start again at h1 under our h2 "Reference": they take the levels below it.
        // Its server <select> has no label.
        onComplete: () => {
          const operations = domNode.querySelector("main#operations");
          operations?.setAttribute("role", "region");
          operations?.setAttribute("aria-label", "API operations");
          domNode.querySelector(".info .title")?.setAttribute("aria-level", "3");
          for (const tag of domNode.querySelectorAll("h3.opblock-tag")) tag.setAttribute("aria-level", "4");
          domNode.querySelector("select#servers")?.setAttribute("aria-label", "Server");
        },
      });
      setState("ready");
    };
    const src = `${SWAGGER_UI_PREFIX}swagger-ui-bundle.js`;
    const href = `${SWAGGER_UI_PREFIX}swagger-ui.css`;
    let cancelled = false;
    /** The file's element, added once; resolves when it has loaded (at once if it already had). */
    const added = <T extends HTMLScriptElement | HTMLLinkElement>(
      selector: string,
      create: () => T,
      ready: boolean,
    ) => {
      const existing = document.querySelector<T>(selector);
      if (existing && ready) return Promise.resolve();
      const element = existing ?? create();
      return new Promise<void>((resolve, reject) => {
        element.addEventListener("load", () => resolve(), { once: true });
        element.addEventListener("error", () => reject(new Error(selector)), { once: true });
        if (!existing) (element instanceof HTMLLinkElement ? document.head : document.body).append(element);
      });
    };
    const load = () => {
      const sheet = added(
        `link[href="${href}"]`,
        () => Object.assign(document.createElement("link"), { rel: "stylesheet", href }),
        Boolean(document.querySelector<HTMLLinkElement>(`link[href="${href}"]`)?.sheet),
      );
      const script = added(
        `script[src="${src}"]`,
        () => Object.assign(document.createElement("script"), { src }),
        Boolean(window.SwaggerUIBundle),
      );
      Promise.all([sheet, script]).then(
        () => !cancelled && render(),
        () => !cancelled && setState("failed"),
      );
    };
    // Swagger UI is a megabyte of script: it loads when the reference comes near the screen,
    // not with the page (a phone reading the guide above never pays for it).
    const near = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        near.disconnect();
        load();
      },
      { rootMargin: "200px 0px" },
    );
    if (target.current) near.observe(target.current);
    return () => {
      cancelled = true;
      near.disconnect();
    };
  }, [target]);
  return state;
}

const Code = ({ children }: { children: React.ReactNode }) => (
  <code className="rounded bg-slate-100 px-1 py-0.5 text-sm">{children}</code>
);

export default function DevelopersPage() {
  const target = useRef<HTMLDivElement>(null);
  const state = useSwaggerUi(target);
  return (
    <section className="space-y-4">
      <h1 className="text-2xl font-semibold">Developers</h1>
      <p>
        The OfferAtlas API gives read access to the directory: offers (with the same search parameters as the site),
        networks with their reviews summary, traffic sources and verticals, as JSON.
      </p>
      <h2 className="text-xl font-semibold">Get a key</h2>
      <p>
        Sign in and create a key on <Link to="/account/api-keys">your API keys page</Link>. The key is shown once; keep
        it secret and revoke it there if it leaks.
      </p>
      <h2 className="text-xl font-semibold">Authentication</h2>
      <p>
        Send the key with every request, as <Code>Authorization: Bearer &lt;key&gt;</Code> or{" "}
        <Code>X-Api-Key: &lt;key&gt;</Code>. Without a valid key the API answers 401 with a <Code>message</Code>. Only
        the document itself, <a href={OPENAPI_PATH}>{OPENAPI_PATH}</a>, is open to everyone.
      </p>
      <h2 className="text-xl font-semibold">Rate limits</h2>
      <p>
        Each key may make a number of requests per minute. Every answer says where you stand in the{" "}
        <Code>RateLimit-Limit</Code>, <Code>RateLimit-Remaining</Code> and <Code>RateLimit-Reset</Code> headers; past
        the limit the API answers 429 with a <Code>Retry-After</Code> header.
      </p>
      <h2 className="text-xl font-semibold">Pagination and caching</h2>
      <p>
        Lists answer {V1_DEFAULT_LIMIT} items unless you ask for up to {V1_MAX_LIMIT} with <Code>limit</Code> (offer
        searches page by 25). When there is more, the answer&apos;s <Code>next</Code> holds a cursor: pass it as{" "}
        <Code>cursor</Code>, or follow the <Code>Link: &lt;…&gt;; rel=&quot;next&quot;</Code> header. Every answer has
        an <Code>ETag</Code>; send it back as <Code>If-None-Match</Code> and an unchanged answer comes back as 304
        without a body. Browsers on other sites may call the API too (CORS for reads).
      </p>
      <h2 className="text-xl font-semibold">Reference</h2>
      {state === "failed" ? (
        <p role="alert">
          The interactive reference could not be loaded; the document is at <a href={OPENAPI_PATH}>{OPENAPI_PATH}</a>.
        </p>
      ) : null}
      {/* Room for the reference while it loads, so the page below it does not jump when it comes. */}
      <div
        ref={target}
        id="swagger-ui"
        aria-busy={state === "loading"}
        className={state === "loading" ? "min-h-96" : ""}
      />
    </section>
  );
}
