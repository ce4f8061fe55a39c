// The page an account form turns into once accepted: what happened, and the way to log in.
import type { ReactNode } from "react";
import { Link } from "#app/ui/Link.tsx";

export function Accepted({ testId, title, children }: { testId: string; title: string; children: ReactNode }) {
  return (
    <section className="mx-auto max-w-md">
      <div role="status" data-testid={testId} className="card border-emerald-300 bg-emerald-50 text-emerald-900">
        <h1 className="text-2xl font-semibold">{title}</h1>
        <p className="mt-2">{children}</p>
        <Link to="/login" className="btn-primary mt-4 inline-block">
          Log in
        </Link>
      </div>
    </section>
  );
}
