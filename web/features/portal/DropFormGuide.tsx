/** Beside the new-drop form: the four steps a drop goes through. */
export function DropFormGuide() {
  return (
    <aside className="drop-form__aside" aria-label="How a drop works">
      <h3 className="drop-form__aside-title">How a drop works</h3>
      <ol className="drop-form__steps">
        <li>
          <strong>Before the release</strong> the slots are invisible to availability and cannot be booked directly.
        </li>
        <li>
          <strong>During the window</strong> each diner enters once, with a verified phone and a party size up to the capacity.
        </li>
        <li>
          <strong>At the release</strong> a seeded random draw orders every entry. Winners get a held table for the usual hold time; a table let go goes to the
          next in line.
        </li>
        <li>
          <strong>Afterwards</strong> the seed is published so anyone can check the order.
        </li>
      </ol>
    </aside>
  );
}
