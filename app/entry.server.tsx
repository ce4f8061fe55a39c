import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import { ResponseStatus } from "#app/ui/shell/ErrorPage.tsx";
import { refusalOf } from "#core/errors.ts";
import { requestContext } from "./context";

export { requestContext };

export const streamTimeout = 5_000;

// A loader that fails because the database is unavailable or saturated throws the
// services' HttpError 503 (db/client.ts DatabaseUnavailableError). React Router
// renders the error boundary with status 500 and a sanitized error, so the 503 and
// its Retry-After are noted here, by request, for handleRequest to answer with.
type Unavailable = { status: number; headers: Record<string, string> };
const unavailableRequests = new WeakMap<object, Unavailable>();

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  const refusal = refusalOf(error);
  if (refusal?.status === 503) {
    // Expected while the database is down or busy; the request log records the 503.
    unavailableRequests.set(context, refusal);
    return;
  }
  // React Router's default: log what went wrong, unless the visitor went away.
  if (!request.signal.aborted) console.error(error);
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const nonce = loadContext.get(requestContext).nonce;
  const unavailable = unavailableRequests.get(loadContext);
  if (unavailable && responseStatusCode >= 500) {
    responseStatusCode = unavailable.status;
    for (const [name, value] of Object.entries(unavailable.headers)) responseHeaders.set(name, value);
  }
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // Bots and no-JS clients get the whole document at once; browsers get it streamed.
    const readyEvent =
      isbot(request.headers.get("user-agent") ?? "") || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    const { pipe, abort } = renderToPipeableStream(
      <ResponseStatus value={responseStatusCode}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </ResponseStatus>,
      {
        nonce,
        [readyEvent]() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}
