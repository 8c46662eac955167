import type { ReactNode } from 'react';
import './ui.css';

/** An inline message. Errors interrupt screen readers (role=alert); the rest are polite. */
export function Alert({ tone, title, children }: { tone: 'error' | 'success' | 'info' | 'warning'; title?: ReactNode; children?: ReactNode }) {
  return (
    <div className={`alert alert--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      <div className="alert__body">
        {title ? <strong className="alert__title">{title}</strong> : null}
        {children}
      </div>
    </div>
  );
}

export function Skeleton({
  width = '100%',
  height = 16,
  radius,
  className,
}: {
  width?: number | string;
  height?: number | string;
  radius?: string;
  className?: string;
}) {
  return (
    <span className={['skeleton', className].filter(Boolean).join(' ')} style={{ display: 'block', width, height, borderRadius: radius }} aria-hidden="true" />
  );
}

/** A screen while it loads: skeletons for the eye, one status sentence for screen readers. */
export function LoadingScreen({ className, label, children }: { className: string; label: string; children: ReactNode }) {
  return (
    <div className={className} aria-busy="true">
      <p className="visually-hidden" role="status">
        {label}
      </p>
      {children}
    </div>
  );
}

export function Spinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="spinner-block" role="status" aria-live="polite">
      <div className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

export function EmptyState({ icon, title, children }: { icon?: string; title: ReactNode; children?: ReactNode }) {
  return (
    <div className="empty-state">
      {icon ? (
        <div className="empty-state__icon emoji" aria-hidden="true">
          {icon}
        </div>
      ) : null}
      <div className="empty-state__title">{title}</div>
      {children}
    </div>
  );
}
