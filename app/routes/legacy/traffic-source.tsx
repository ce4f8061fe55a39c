// Legacy address from the old site: answers 301 to the canonical page.
import { redirect } from "react-router";
import type { Route } from "./+types/traffic-source";

export function loader({ params }: Route.LoaderArgs) {
  return redirect(params.id ? `/traffic-sources/details/${encodeURIComponent(params.id)}` : "/traffic-sources", 301);
}
