// /logout (resource route): ends the session server-side, clears its cookies and the browser's
// cache of the site (the personal answer it kept), and goes to / — also when revoking fails
// (docs/product.md §8: logout errors are ignored).
import { redirect } from "react-router";
import { requestContext } from "#app/context.ts";
import { CLEARED_PERSONAL_VERSION, SESSION_ENDED_CLEAR_SITE_DATA } from "#contracts/personal.ts";
import type { Route } from "./+types/logout";

export async function action({ request, context }: Route.ActionArgs) {
  const { services } = context.get(requestContext);
  try {
    await services.auth.logout(services.auth.readSessionCookie(request.headers.get("cookie")));
  } catch {
    // The cookie is cleared below either way.
  }
  const headers = new Headers({ "Clear-Site-Data": SESSION_ENDED_CLEAR_SITE_DATA });
  headers.append("Set-Cookie", services.auth.sessionCookie(null, services.secureCookies));
  headers.append("Set-Cookie", CLEARED_PERSONAL_VERSION);
  return redirect("/", { headers });
}

// Logging out changes state, so it takes a POST; a GET (typed address) just goes home.
export const loader = () => redirect("/");
