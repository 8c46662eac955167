/** Text safe inside HTML or SVG markup, in element content and in quoted attributes. */
export function escapeMarkup(text: string): string {
  return (
    text
      // Characters XML 1.0 forbids: in an SVG they would break the whole image.
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
      .replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!)
  );
}

/**
 * JSON text to put inside <script type="application/json">: `<` can never close the element (a
 * restaurant named "</script><script>…" stays data), and U+2028/2029 stay escaped.
 */
export function jsonTextForScriptElement(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
