import { observable } from '@legendapp/state';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { persistLocally } from '../../src/app/state/persist';

/** A Map-backed localStorage, the part persistLocally uses. */
function memoryStorage(entries: Record<string, string> = {}) {
  const data = new Map(Object.entries(entries));
  return {
    data,
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    removeItem: (key: string) => void data.delete(key),
  };
}

const global = globalThis as { localStorage?: unknown };
let saved: unknown;
beforeEach(() => {
  saved = global.localStorage;
});
afterEach(() => {
  global.localStorage = saved;
});

describe('persisting state in localStorage', () => {
  it('starts from the stored value, merged over the defaults of an object', () => {
    global.localStorage = memoryStorage({
      'paperdesk.session': JSON.stringify({ token: 'abc' }),
      'paperdesk.theme': JSON.stringify('black'),
    });
    const session$ = observable<{ token: string | null; user: { name: string } | null }>({
      token: null,
      user: null,
    });
    const theme$ = observable<'red' | 'black'>('red');
    persistLocally(session$, 'session');
    persistLocally(theme$, 'theme');
    expect(session$.peek()).toEqual({ token: 'abc', user: null });
    expect(theme$.peek()).toBe('black');
  });

  it('writes every change as JSON under paperdesk.<name>, and removes the entry for null', () => {
    const storage = memoryStorage();
    global.localStorage = storage;
    const colors$ = observable<'red-up' | 'green-up' | null>(null);
    const session$ = observable({ token: null as string | null });
    persistLocally(colors$, 'priceColors');
    persistLocally(session$, 'session');
    colors$.set('green-up');
    session$.token.set('xyz');
    expect(storage.data.get('paperdesk.priceColors')).toBe('"green-up"');
    expect(storage.data.get('paperdesk.session')).toBe('{"token":"xyz"}');
    colors$.set(null);
    expect(storage.data.has('paperdesk.priceColors')).toBe(false);
  });

  it('keeps the default over a stored value that is not JSON, and without storage at all', () => {
    global.localStorage = memoryStorage({ 'paperdesk.lang': 'en' });
    const lang$ = observable('zh-CN');
    persistLocally(lang$, 'lang');
    expect(lang$.peek()).toBe('zh-CN');
    global.localStorage = undefined;
    const theme$ = observable('red');
    persistLocally(theme$, 'theme');
    theme$.set('black');
    expect(theme$.peek()).toBe('black');
  });
});
