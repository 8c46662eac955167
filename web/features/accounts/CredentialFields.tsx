import type { ComponentProps, ReactNode } from 'react';
import { TextField } from '#web/components/ui/Field.tsx';

/** A form may word the label its own way (e.g. marking it required); the name and type are the field's. */
type FieldProps = Omit<ComponentProps<typeof TextField>, 'label' | 'name' | 'type'> & { label?: ReactNode };

/** The username field of every sign-in and signup form (diners and staff): no capitals or spelling help. */
export function UsernameField(props: FieldProps) {
  return <TextField label="Username" name="username" autoComplete="username" autoCapitalize="none" spellCheck={false} required {...props} />;
}

/** The password field of every sign-in form (a signup passes autoComplete="new-password"). */
export function PasswordField(props: FieldProps) {
  return <TextField label="Password" name="password" type="password" autoComplete="current-password" required {...props} />;
}

/** The 6-digit code texted to a phone: the number pad, and the phone's own offer to fill it in. */
export function OneTimeCodeField(props: FieldProps) {
  return <TextField label="Code" name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} {...props} />;
}

/** A demo account's username and password, shown so anyone can try the product. */
export function DemoCredentials({ username, password, className }: { username: string; password: string; className: string }) {
  return (
    <dl className={className}>
      <dt>Username</dt>
      <dd>
        <code>{username}</code>
      </dd>
      <dt>Password</dt>
      <dd>
        <code>{password}</code>
      </dd>
    </dl>
  );
}
