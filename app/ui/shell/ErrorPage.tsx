// Error pages with the spec's exact texts (§2). If rendering the page itself
// fails, a last-resort message with the link home is shown instead.
import { Component, createContext, type ReactNode } from "react";

/**
 * The status the server answers a page with, provided by entry.server. An error
 * thrown by a loader reaches the browser (and the server render) sanitized, so
 * this is how the error page knows a 503 (database unavailable or saturated)
 * from a 500. Absent in the browser: there the server-rendered number is kept.
 */
export const ResponseStatus = createContext<number | undefined>(undefined);

const ERROR_TEXTS = {
  notFound: "Sorry, the page you're looking for could not be found",
  noMatch: "This page could not be found",
  server: "Sorry! The application has encountered a server error",
  errorPageFailed: "An error occurred while showing the error page",
  home: "Click here to go back to home page",
} as const;

export function ErrorPage({ status, noMatch = false, detail }: { status: number; noMatch?: boolean; detail?: string }) {
  return (
    <ErrorPageGuard>
      <section className="mx-auto max-w-xl py-16 text-center">
        {/* The browser may only know "500" for what the server answered 503: keep the server's number. */}
        <p className="text-6xl font-black text-slate-500" suppressHydrationWarning>
          {status}
        </p>
        <h1 className="mt-4 text-xl font-semibold text-slate-800">
          {status === 404
            ? ERROR_TEXTS.notFound
            : status >= 500
              ? ERROR_TEXTS.server
              : detail || "Sorry, something went wrong"}
        </h1>
        {noMatch && <p className="mt-2 text-slate-600">{ERROR_TEXTS.noMatch}</p>}
        {status === 401 && <SignInLink />}
        {/* A plain link: after an error the app state may be unusable, so reload fully. */}
        <a href="/" className="btn-primary mt-6 inline-block">
          {ERROR_TEXTS.home}
        </a>
      </section>
    </ErrorPageGuard>
  );
}

/**
 * A page that needs a session (the console) offers to log in and come back to
 * the console's start: a fixed address, so an error page never repeats what the
 * request's path or query said.
 */
function SignInLink() {
  return (
    <p className="mt-4">
      <a href="/login?redirectTo=/admin" className="link">
        Log in
      </a>
    </p>
  );
}

class ErrorPageGuard extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <section className="py-16 text-center">
        <p>{ERROR_TEXTS.errorPageFailed}</p>
        <a href="/" className="link">
          {ERROR_TEXTS.home}
        </a>
      </section>
    );
  }
}
