/**
 * A sentence ending in a name that may end in its own full stop ("Coastal Curry Co."): one stop,
 * never two.
 */
export function endSentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
