import type { ObservableWriteable } from '@legendapp/state';
import { persistObservable } from '@legendapp/state/persist';
import { ObservablePersistLocalStorage } from '@legendapp/state/persist-plugins/local-storage';

/**
 * Persists an observable in localStorage under `paperdesk.<name>`. localStorage, not IndexedDB: the
 * IndexedDB database belongs to src/db and the service worker (CONVENTIONS: never share it), and a
 * synchronous read lets the first render already know the session, theme and language.
 */
export function persistLocally<T extends object | string | number | boolean | null>(
  observable$: ObservableWriteable<T>,
  name: string,
): void {
  persistObservable(observable$, {
    local: `paperdesk.${name}`,
    pluginLocal: ObservablePersistLocalStorage,
  });
}
