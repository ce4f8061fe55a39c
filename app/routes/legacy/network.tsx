// Legacy address from the old site: answers 301 to the canonical page.
import { redirect } from "react-router";
import type { Route } from "./+types/network";

export function loader({ params }: Route.LoaderArgs) {
  return redirect(params.id ? `/network/${encodeURIComponent(params.id)}${params.slug ? `/${encodeURIComponent(params.slug)}` : ""}` : "/networks", 301);
}
