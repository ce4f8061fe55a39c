// /404 (where a 404 answer sends the visitor) and the no-match route: both answer 404.
import { data } from "react-router";
import { ErrorPage } from "#app/ui/shell/ErrorPage.tsx";
import type { Route } from "./+types/not-found";
import { unlistedPageMeta } from "#app/lib/seo.ts";

// Canonical at /404 whatever was asked: a missing page never echoes the address it was asked by.
export const meta: Route.MetaFunction = ({ matches }) =>
  unlistedPageMeta(
    { matches, location: { pathname: "/404" } },
    {
      title: "Page not found",
      description: "Sorry, the page you're looking for could not be found.",
    },
  );

export function loader() {
  return data(null, { status: 404 });
}

export default function NotFound({ params }: Route.ComponentProps) {
  return <ErrorPage status={404} noMatch={"*" in params} />;
}
