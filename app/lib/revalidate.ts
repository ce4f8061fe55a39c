// A route's shouldRevalidate from its own rule, for loaders whose data outlives some navigations.
import type { ShouldRevalidateFunctionArgs } from "react-router";

/** `rule` answers true or false where it knows better; undefined leaves the choice to React Router. */
export const revalidateWhen =
  (rule: (args: ShouldRevalidateFunctionArgs) => boolean | undefined) => (args: ShouldRevalidateFunctionArgs) =>
    rule(args) ?? args.defaultShouldRevalidate;
