import type { ReactNode } from 'react';
import { DATING_FREE_TEXT_MAX } from '#common/domain/dating-profile.ts';

/** One titled part of a long dating form. */
export function Section({ title, description, children, id }: { title: string; description?: string; children: ReactNode; id: string }) {
  return (
    <section className="d-form-section" aria-labelledby={id}>
      <div className="d-form-section__head">
        <h2 id={id} className="d-form-section__title">
          {title}
        </h2>
        {description ? <p className="d-muted">{description}</p> : null}
      </div>
      {children}
    </section>
  );
}

/** Characters used of a free-text answer's allowance. */
export function Counter({ value }: { value: string }) {
  const length = value.trim().length;
  return (
    <span className={length > DATING_FREE_TEXT_MAX ? 'd-counter d-counter--over' : 'd-counter'}>
      {length}/{DATING_FREE_TEXT_MAX}
    </span>
  );
}
