/** `?id=` as a positive whole number, else nothing. */
export function positiveIdSearch(search: Record<string, unknown>): { id?: number } {
  const id = Number(typeof search.id === 'string' ? search.id.trim() : search.id);
  return Number.isSafeInteger(id) && id > 0 ? { id } : {};
}
