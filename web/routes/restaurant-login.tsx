/** Placeholder until its issue lands; replaced by the screen itself. */
export default function Screen() {
  return <div className="container page"><h1>Coming soon</h1></div>;
}
