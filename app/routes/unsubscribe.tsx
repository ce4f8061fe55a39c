// /unsubscribe/:token: the link of every alert mail. GET shows what the link stops
// and a button (a link opened by a mail scanner must not unsubscribe anyone); POST
// stops it, from that button or as a mail client's one-click unsubscribe (RFC 8058:
// `List-Unsubscribe=One-Click`, answered 200 with no further step). Works signed
// out: the unguessable token is the permission. An unknown token answers 404.
import { data, Form, useActionData, useLoaderData } from "react-router";
import { Link } from "#app/ui/Link.tsx";
import { requestContext } from "#app/context.ts";
import { refusalOf } from "#core/errors.ts";
import type { UnsubscribeTarget } from "#core/alerts/alerts.ts";
import type { Route } from "./+types/unsubscribe";
import { unlistedPageMeta } from "#app/lib/seo.ts";

export const meta: Route.MetaFunction = (args) =>
  unlistedPageMeta(args, {
    title: "Unsubscribe",
    description: "Stop the alert mails of a saved search or of your watchlist.",
  });

type Answer = { target: UnsubscribeTarget | null; done: boolean };

/** The service's answer as a page: 404 for an unknown token, 429 past the rate limit. */
async function answer(work: Promise<UnsubscribeTarget | null>, done: boolean) {
  try {
    const target = await work;
    return data<Answer>({ target, done: done && target !== null }, { status: target ? 200 : 404 });
  } catch (err) {
    const refusal = refusalOf(err);
    if (!refusal) throw err;
    throw data(refusal.message, { status: refusal.status, headers: refusal.headers });
  }
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const { services, clientIp } = context.get(requestContext);
  return answer(services.alerts.unsubscribeTarget(params.token, clientIp), false);
}

export async function action({ params, context }: Route.ActionArgs) {
  const { services, clientIp } = context.get(requestContext);
  return answer(services.alerts.unsubscribe(params.token, clientIp), true);
}

export default function UnsubscribePage() {
  const loaded = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  const { target, done } = acted ?? loaded;
  return (
    <section className="mx-auto max-w-md">
      <h1 className="text-2xl font-semibold">Unsubscribe</h1>
      {!target ? (
        <div role="alert" data-testid="unsubscribe-unknown" className="card mt-4">
          <p>This unsubscribe link is not valid: it may have been mistyped, or the alert was deleted.</p>
          <p className="mt-2 text-sm">
            Signed in, you can manage every alert on{" "}
            <Link to="/account/searches" className="link">
              your saved searches
            </Link>
            .
          </p>
        </div>
      ) : done || !target.active ? (
        <div role="status" data-testid="unsubscribed" className="card mt-4 border-emerald-300 bg-emerald-50">
          <p>{`You will no longer receive ${target.what}.`}</p>
        </div>
      ) : (
        <Form method="post" className="card mt-4 space-y-3">
          <p>{`Stop receiving ${target.what}?`}</p>
          <button type="submit" className="btn-primary w-full">
            Unsubscribe
          </button>
        </Form>
      )}
    </section>
  );
}
