// The new password and its confirmation, as /register and /reset-password ask for them.
import { TextField } from "#app/ui/form/Fields.tsx";

export function NewPasswordFields({ label }: { label: string }) {
  return (
    <>
      <TextField label={label} name="password" type="password" autoComplete="new-password" required minLength={8} />
      <TextField label="Confirm Password" name="confirmPassword" type="password" autoComplete="new-password" required />
    </>
  );
}
