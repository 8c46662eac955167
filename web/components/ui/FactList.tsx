import type { ReactNode } from 'react';

/** One fact: its term and what it says. */
export type Fact = readonly [term: string, value: ReactNode];

/**
 * Facts as a definition list, each term and its value wrapped in a div so a feature's styles can
 * lay a fact out as one cell (a grid of tiles, a row with a rule between). The terms are the keys:
 * a list names each fact once.
 */
export function FactList({ facts, className, factClassName }: { facts: readonly Fact[]; className: string; factClassName?: string }) {
  return (
    <dl className={className}>
      {facts.map(([term, value]) => (
        <div key={term} className={factClassName}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
