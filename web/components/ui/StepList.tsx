/** One step of a "how it works" list. */
export interface Step {
  title: string;
  text: string;
}

/**
 * A numbered "how it works" list. Each page keeps its own look through the class names it
 * passes (home and dating differ), while the markup and its reading order stay one.
 */
export function StepList({ steps, classNames }: { steps: readonly Step[]; classNames: { list: string; item: string; number: string; title?: string } }) {
  return (
    <ol className={classNames.list}>
      {steps.map((step, index) => (
        <li key={step.title} className={classNames.item}>
          <span className={classNames.number} aria-hidden="true">
            {index + 1}
          </span>
          <div>
            <h3 className={classNames.title}>{step.title}</h3>
            <p>{step.text}</p>
          </div>
        </li>
      ))}
    </ol>
  );
}
