/** Recent searches of the search screens, newest first, kept in localStorage (at most RECENT_MAX). */
const KEY = 'paperdesk.recentSearches';
export const RECENT_MAX = 10;

export function readRecentSearches(): string[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(parsed)
      ? parsed.filter((v): v is string => typeof v === 'string').slice(0, RECENT_MAX)
      : [];
  } catch {
    return [];
  }
}

export function rememberSearch(keyword: string): string[] {
  const value = keyword.trim();
  if (value === '') return readRecentSearches();
  const next = [value, ...readRecentSearches().filter((k) => k !== value)].slice(0, RECENT_MAX);
  try {
    localStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    // Storage full or blocked (private mode): the list just is not remembered.
  }
  return next;
}

export function clearRecentSearches(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // Blocked storage: nothing was stored either.
  }
}
