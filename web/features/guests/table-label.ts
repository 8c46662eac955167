/**
 * The brief's Table column (decision 264): the table's name when the booking has a table
 * assignment, "—" otherwise. The one place that decides it, so the floor's tables wire in here.
 */
export function tableLabel(arrival: { table: string | null }): string {
  return arrival.table?.trim() || '—';
}
