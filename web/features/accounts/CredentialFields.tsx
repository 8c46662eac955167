import type { ComponentProps } from 'react';
import { TextField } from '#web/components/ui/Field.tsx';

type FieldProps = Omit<ComponentProps<typeof TextField>, 'label' | 'name' | 'type'>;

/** The username field of every sign-in form (diners and staff): no capitals or spelling help. */
export function UsernameField(props: FieldProps) {
  return <TextField label="Username" name="username" autoComplete="username" autoCapitalize="none" spellCheck={false} required {...props} />;
}

/** The password field of every sign-in form. */
export function PasswordField(props: FieldProps) {
  return <TextField label="Password" name="password" type="password" autoComplete="current-password" required {...props} />;
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
