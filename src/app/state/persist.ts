import { mergeIntoObservable, type ObservableWriteable } from '@legendapp/state';

/** The part of Web Storage used here, typed locally: the state modules are also compiled for Node's tests. */
interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/**
 * Persists an observable in localStorage under `paperdesk.<name>`, as JSON (null removes the entry); with
 * `storage: 'session'`, in sessionStorage instead (kept for the tab's session, forgotten when it closes). The
 * stored value is merged over the initial one at once, so the first render already knows the session, theme
 * and language. localStorage, not IndexedDB: the IndexedDB database belongs to src/db and the service worker
 * (CONVENTIONS: never share it). A few lines rather than legend-state's persist plugin, which is built for
 * remote sync and would add about 4 KB gzip to the first visit's JavaScript; the format is the one that
 * plugin wrote (JSON under the same key), so a stored session, theme or language still reads.
 */
export function persistLocally<T extends object | string | number | boolean | null>(
  observable$: ObservableWriteable<T>,
  name: string,
  options: { storage?: 'local' | 'session' } = {},
): void {
  const key = `paperdesk.${name}`;
  // Storage can be missing or refuse access (a private window, a blocked site): the app then starts with
  // the defaults and forgets on reload.
  let storage: KeyValueStorage | undefined;
  let stored: string | null = null;
  try {
    const stores = globalThis as { localStorage?: KeyValueStorage; sessionStorage?: KeyValueStorage };
    storage = options.storage === 'session' ? stores.sessionStorage : stores.localStorage;
    if (!storage) return;
    stored = storage.getItem(key);
  } catch {
    return;
  }
  const store = storage;
  if (stored !== null) {
    try {
      mergeIntoObservable(observable$, JSON.parse(stored) as T);
    } catch {
      // Not JSON (written by something else): the default stays, and the next change overwrites it.
    }
  }
  observable$.onChange(({ value }) => {
    try {
      if (value === null || value === undefined) store.removeItem(key);
      else store.setItem(key, JSON.stringify(value));
    } catch {
      // Full or refused: the value still holds for this visit.
    }
  });
}
