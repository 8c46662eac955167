import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Link, type LinkProps } from 'react-router';
import './ui.css';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger' | 'dark';

interface StyleProps {
  variant?: Variant;
  size?: 'md' | 'sm';
  block?: boolean;
  /** The label may wrap inside the pill when the row is narrower than it. */
  wrap?: boolean;
}

function classes({ variant = 'primary', size = 'md', block, wrap }: StyleProps, extra?: string): string {
  return ['btn', `btn--${variant}`, size === 'sm' && 'btn--sm', block && 'btn--block', wrap && 'btn--wrap', extra].filter(Boolean).join(' ');
}

export function Button({ variant, size, block, wrap, className, type = 'button', ...rest }: ButtonHTMLAttributes<HTMLButtonElement> & StyleProps) {
  return <button type={type} className={classes({ variant, size, block, wrap }, className)} {...rest} />;
}

/** A link that looks like a button (navigation stays a real link). */
export function ButtonLink({ variant, size, block, wrap, className, ...rest }: LinkProps & StyleProps & { children: ReactNode }) {
  return <Link className={classes({ variant, size, block, wrap }, className)} {...rest} />;
}
