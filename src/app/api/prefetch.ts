/**
 * A route's preload of its screen's first reads (routes/route-prefetch.ts): into the query cache, with the very
 * query options the screen's hooks use (station-query.ts). Never throws and never waits: a failed or
 * offline preload leaves the screen to ask (and show the failure) itself.
 */
import type { QueryClient } from '@tanstack/react-query';
import { locale$ } from '../state/locale';
import { session$ } from '../state/session';
import { stationQueryOptions } from './station-query';
import type { StationRead } from './reads';
import type { Locales } from '../../../locales/i18n-types';

/** Calls of the user's own (API.md: /user/…, /api/user/…): not asked without a session. */
const needsSession = (read: StationRead): boolean => read.key.includes('/user/');

/** What a screen reads first, in the current language (some reads carry it as a parameter). */
export type FirstReads = (locale: Locales) => readonly (StationRead | null)[];

export function prefetchReads(client: QueryClient, reads: FirstReads): void {
  const locale = locale$.peek();
  const loggedIn = session$.token.peek() !== null;
  for (const read of reads(locale)) {
    if (!read || (!loggedIn && needsSession(read))) continue;
    void client.prefetchQuery(stationQueryOptions(read.key, read.input, locale));
  }
}
