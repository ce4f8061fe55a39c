// /logout (resource route): ends the session server-side, clears the cookie and
// goes to / — also when revoking fails (docs/product.md §8: logout errors are ignored).
import { redirect } from "react-router";
import { requestContext } from "#app/context.ts";
import type { Route } from "./+types/logout";

export async function action({ request, context }: Route.ActionArgs) {
  const { services } = context.get(requestContext);
  try {
    await services.auth.logout(services.auth.readSessionCookie(request.headers.get("cookie")));
  } catch {
    // The cookie is cleared below either way.
  }
  return redirect("/", { headers: { "Set-Cookie": services.auth.sessionCookie(null, services.secureCookies) } });
}

// Logging out changes state, so it takes a POST; a GET (typed address) just goes home.
export const loader = () => redirect("/");
