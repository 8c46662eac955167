import type { ComponentProps } from 'react';
import { TextField } from '#web/components/ui/Field.tsx';

/** The phone number a dating account logs in with (signup and login), in the Indian placeholder form. */
export function DatingPhoneField(props: Omit<ComponentProps<typeof TextField>, 'label' | 'type'>) {
  return <TextField label="Phone" type="tel" inputMode="tel" autoComplete="tel" placeholder="+91 98765 43210" required {...props} />;
}
