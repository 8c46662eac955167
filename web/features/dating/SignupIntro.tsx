/** Beside the signup form: what Tablefair Dating asks for and promises. */
export function SignupIntro() {
  return (
    <aside className="d-signup__intro">
      <p className="d-eyebrow d-eyebrow--plum">Tablefair Dating</p>
      <h1 className="d-signup__title">Create your account</h1>
      <p className="d-muted">A few honest answers and three photos. We use them to curate matches and plan a first date you will both enjoy.</p>
      <ul className="d-checklist">
        <li>Your phone number is never shown to matches</li>
        <li>You never message each other: the app coordinates</li>
        <li>Your venue deposit becomes credit at the table</li>
      </ul>
    </aside>
  );
}
