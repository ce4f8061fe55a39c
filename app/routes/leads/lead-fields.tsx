// The fields more than one lead form asks for, each drawn one way, and the two-column grid they sit in.
import type { ReactNode } from "react";
import { TextField } from "#app/ui/form/Fields.tsx";

/** Short fields side by side from the small breakpoint up. */
export function FieldPairs({ children }: { children: ReactNode }) {
  return <div className="grid gap-4 sm:grid-cols-2">{children}</div>;
}

export const EmailField = ({ label }: { label: string }) => (
  <TextField name="email" label={label} required type="email" autoComplete="email" />
);

export const WebsiteField = ({ label }: { label: string }) => (
  <TextField
    name="website"
    label={label}
    required
    type="url"
    inputMode="url"
    placeholder="https://"
    autoComplete="url"
  />
);

export const MessengerField = () => <TextField name="messenger" label="Skype / Telegram" hint="Optional" />;
