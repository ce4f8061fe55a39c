// The route table of docs/product.md §2. Layout routes carry the spec's seven layouts.
import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";

export default [
  // General search bar with top ads and sidebar: the offers search.
  layout("routes/offers/search-layout.tsx", [
    index("routes/offers/home.tsx"),
    route("pay-per-call-offers", "routes/offers/pay-per-call-offers.tsx"),
  ]),
  // Network search bar with top ads and sidebar.
  layout("routes/layouts/directory-search.tsx", [
    route("networks", "routes/networks/networks.tsx"),
    route("traffic-sources", "routes/traffic-sources/traffic-sources.tsx"),
  ]),
  // Top ads with footer ad and navigation bar: account and lead forms.
  layout("routes/layouts/top-ads-footer-ad.tsx", [
    route("login", "routes/account/login.tsx"),
    route("register", "routes/account/register.tsx"),
    route("forgot-password", "routes/account/forgot-password.tsx"),
    route("reset-password", "routes/account/reset-password.tsx"),
    route("account", "routes/account/account.tsx"),
    route("account/watchlist", "routes/account/watchlist.tsx"),
    route("account/api-keys", "routes/account/api-keys.tsx"),
    route("account/searches", "routes/account/searches.tsx"),
    // The alert mails' unsubscribe links (signed out too).
    route("unsubscribe/:token", "routes/unsubscribe.tsx"),
    route("advertise", "routes/leads/advertise.tsx"),
    route("add-your-network", "routes/leads/add-your-network.tsx"),
    route("contact", "routes/leads/contact.tsx"),
  ]),
  // Links layout: content and sitemap-style pages.
  layout("routes/layouts/links.tsx", [
    route("links", "routes/content/links.tsx"),
    route("faq", "routes/content/faq.tsx"),
    route("developers", "routes/developers.tsx"),
    route("privacy", "routes/content/page.tsx", { id: "routes/privacy" }),
    route("terms", "routes/content/page.tsx", { id: "routes/terms" }),
  ]),
  // Top ads with sidebar: detail pages.
  layout("routes/layouts/top-ads-sidebar.tsx", [
    route("pay-per-call", "routes/offers/pay-per-call.tsx"),
    route("offer/:id?/:slug?", "routes/offers/offer.tsx"),
    route("compare", "routes/offers/compare.tsx"),
    route("network/:id?/:slug?", "routes/networks/network.tsx"),
    route("traffic-sources/details/:id", "routes/traffic-sources/traffic-source.tsx"),
  ]),
  // The operator's console: its own layout without ads; every page checks its role
  // on the server (routes/admin/staff.server.ts).
  ...prefix("admin", [
    layout("routes/admin/layout.tsx", [
      index("routes/admin/dashboard.tsx"),
      route("submissions", "routes/admin/submissions.tsx"),
      route("submissions/:id", "routes/admin/submission.tsx"),
      route("reviews", "routes/admin/reviews.tsx"),
      route("inbox", "routes/admin/inbox.tsx"),
      route("ads", "routes/admin/ads.tsx"),
      route("ads/new", "routes/admin/ads.new.tsx"),
      route("ads/report", "routes/admin/ads.report.tsx"),
      route("ads/:id", "routes/admin/ads.$id.tsx"),
      route("offers", "routes/admin/offers.tsx"),
      route("offers/new", "routes/admin/offers-new.tsx"),
      route("offers/:id", "routes/admin/offers-edit.tsx"),
      route("users", "routes/admin/users.tsx"),
      route("audit", "routes/admin/audit.tsx"),
      route("tags", "routes/admin/tags.tsx"),
      route("networks", "routes/admin/networks.tsx"),
      route("networks/new", "routes/admin/networks-new.tsx"),
      route("networks/:id", "routes/admin/networks-edit.tsx"),
      route("traffic-sources", "routes/admin/traffic-sources.tsx"),
      route("traffic-sources/new", "routes/admin/traffic-sources-new.tsx"),
      route("traffic-sources/:id", "routes/admin/traffic-sources-edit.tsx"),
      route("verticals", "routes/admin/verticals.tsx"),
      route("verticals/:id", "routes/admin/verticals-edit.tsx"),
      route("sources", "routes/admin/sources.tsx"),
      route("sources/:id/feed", "routes/admin/source-feed.tsx"),
      route("sources/:id", "routes/admin/source.tsx"),
      route("categories", "routes/admin/categories.tsx"),
    ]),
  ]),
  // Logout: a resource route (action only).
  route("logout", "routes/account/logout.tsx"),
  // Legacy addresses: each answers 301 to its canonical page.
  route("affiliate-offers/details/offerId/:id?/:slug?", "routes/legacy/offer.tsx"),
  route("affiliate-networks/profile/networkId/:id?/:slug?", "routes/legacy/network.tsx"),
  route("traffic/details/id/:id?", "routes/legacy/traffic-source.tsx"),
  // Search-engine files: resource routes, outside every layout.
  route("robots.txt", "routes/seo/robots.ts"),
  route("sitemap.xml", "routes/seo/sitemap-index.ts"),
  route("sitemaps/:kind/:page", "routes/seo/sitemap-page.ts"),
  route("feeds/offers.xml", "routes/seo/offers-feed.ts"),
  // Top ads only: the error pages.
  layout("routes/layouts/top-ads.tsx", [
    route("404", "routes/content/not-found.tsx", { id: "routes/404" }),
    route("*", "routes/content/not-found.tsx", { id: "routes/no-match" }),
  ]),
] satisfies RouteConfig;
