/**
 * j/k (and the arrow keys) in a list view: the row `step` rows from the selected one, kept
 * inside the list; the first row when nothing (or something no longer listed) is selected.
 */
export function stepSelection<T extends { id: string }>(list: readonly T[], selectedId: string | null, step: number): T | undefined {
  const i = list.findIndex((x) => x.id === selectedId);
  if (i === -1) return list[0];
  return list[Math.min(list.length - 1, Math.max(0, i + step))];
}
