import { useContext } from "react";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  ScrollRestoration,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import { requestContext, signedIn } from "./context";
import { Footer } from "#app/ui/shell/Footer.tsx";
import { NavBar } from "#app/ui/shell/NavBar.tsx";
import { PersonalProvider, usePersonal } from "#app/ui/shell/Personal.tsx";
import { NavigationFocus } from "#app/ui/shell/NavigationFocus.tsx";
import { NotificationProvider } from "#app/ui/shell/Notifications.tsx";
import { ProgressBar } from "#app/ui/shell/ProgressBar.tsx";
import { IdlePrefetch } from "#app/ui/shell/IdlePrefetch.tsx";
import { LinkNavigation } from "#app/ui/Link.tsx";
import { HydrateLater } from "#app/ui/shell/HydrateLater.tsx";
import { PageScripts } from "#app/ui/shell/PageScripts.tsx";
import { FailedLoadRecovery } from "#app/ui/shell/FailedLoadRecovery.tsx";
import { ErrorPage, ResponseStatus } from "#app/ui/shell/ErrorPage.tsx";
import { ConsentProvider } from "#app/ui/consent/Consent.tsx";
import { consentFromCookies } from "#app/ui/consent/cookie.ts";
import stylesHref from "./styles/app.css?url";

export const links: Route.LinksFunction = () => [
  // The .ico for browsers and tools that ask for /favicon.ico; the SVG for the rest.
  { rel: "icon", href: "/favicon.ico", sizes: "16x16 32x32 48x48" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "alternate", type: "application/rss+xml", title: "New offers", href: "/feeds/offers.xml" },
];

export const meta: Route.MetaFunction = () => [
  { title: "OfferAtlas | The highest-paying affiliate programs and marketing resources" },
  {
    name: "description",
    content:
      "Find and compare the highest-paying affiliate programs, offers and networks, read network reviews and discover traffic sources.",
  },
];

export async function loader({ context, request }: Route.LoaderArgs) {
  const page = context.get(requestContext);
  const { services, site, nonce, user } = page;
  // The search-bar ad answers to the offer search's words (docs/product.md §9).
  const ads = await services.ads.forPage(site.id, { search: new URL(request.url).searchParams.get("search") ?? "" });
  const tags = await services.siteTags.forPage(site.id);
  return {
    site: { id: site.id, name: site.name, links: site.links },
    ads,
    // Only what the shell needs; the full profile is on /account and /api/users/profile. In the
    // shared signed-in page, null: the browser asks for it (app/ui/shell/Personal.tsx).
    user: user ? { name: user.name, email: user.email, scope: user.scope } : null,
    signedIn: signedIn(page),
    // The anti-bot script is loaded only when a site key is configured.
    antibotSiteKey: services.antibot.siteKey,
    // Absolute origin and site name for every page's canonical and sharing tags (app/lib/seo.ts).
    seo: { origin: services.seo.origin(site), siteName: site.name },
    nonce,
    // Third-party tags (null when none is configured) and the visitor's answer to the consent banner.
    tags,
    consent: tags ? consentFromCookies(request.headers.get("cookie")) : null,
  };
}

export type RootData = Awaited<ReturnType<typeof loader>>;

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const nonce = data?.nonce;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/*
          The one stylesheet, first: it blocks the first paint (the scripts wait for that paint,
          see PageScripts). Here rather than in `links`, so the browser's Preact claims the same
          <link> elements, in the same order, as the server wrote.
        */}
        <link rel="stylesheet" href={stylesHref} precedence="default" nonce={nonce} />
        <Meta />
        {/* The client passes the nonce too: the server rendered the stylesheet links with it. */}
        <Links nonce={nonce} />
        {/* Before any module runs: zod skips its probe for eval, which the CSP refuses and reports on every page. */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: "globalThis.__zod_globalConfig={jitless:true}" }} />
      </head>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        <NotificationProvider>
          <ConsentProvider tags={data?.tags ?? null} choice={data?.consent ?? null}>
            <ProgressBar />
            <IdlePrefetch />
            <LinkNavigation />
            <FailedLoadRecovery />
            <a
              href="#main"
              className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:bg-white focus:p-2"
            >
              Skip to content
            </a>
            <PersonalProvider shared={Boolean(data?.signedIn && !data.user)}>
              {/*
                The header, the page and the footer each hydrate in a task of their own
                (HydrateLater): one task for the whole page is long enough to hold up a tap.
              */}
              <HydrateLater>
                <PersonalNavBar data={data} />
              </HydrateLater>
              {/* Focusable from script: the skip link and NavigationFocus land on it when a page has no heading. */}
              <HydrateLater>
                <main id="main" tabIndex={-1} className="outline-none">
                  {children}
                </main>
              </HydrateLater>
            </PersonalProvider>
            <NavigationFocus />
            <HydrateLater>
              <Footer links={data?.site.links ?? {}} />
            </HydrateLater>
          </ConsentProvider>
        </NotificationProvider>
        <ScrollRestoration nonce={nonce} />
        <PageScripts nonce={nonce} />
      </body>
    </html>
  );
}

/** The header, with the user's name from the page or, in the shared signed-in page, from its personal parts. */
function PersonalNavBar({ data }: { data: RootData | undefined }) {
  const personal = usePersonal();
  return (
    <NavBar
      user={data?.user ?? personal?.user ?? null}
      signedIn={Boolean(data?.signedIn)}
      links={data?.site.links ?? {}}
    />
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  // A loader's own error arrives sanitized; the server says when it answers 503 (entry.server).
  const responseStatus = useContext(ResponseStatus);
  const status = isRouteErrorResponse(error)
    ? error.status
    : responseStatus && responseStatus > 500
      ? responseStatus
      : 500;
  if (!isRouteErrorResponse(error) && import.meta.env.DEV) console.error(error);
  return (
    <div className="container-oa">
      <ErrorPage status={status} detail={isRouteErrorResponse(error) ? error.statusText : undefined} />
    </div>
  );
}
