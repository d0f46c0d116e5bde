import { observable } from '@legendapp/state';

/**
 * What the app knows of its connection (ARCHITECTURE "How data flows"): the browser's online state (the
 * shell's banner), whether no base URL answers (spec §8: the page is replaced by "cannot connect"), and,
 * per call, when the answer on screen was stored if it came from IndexedDB (the "as of" notes).
 */
/** The browser's navigator, where there is one (the module also loads in unit tests under Node). */
function browserNavigator(): { onLine?: boolean } | undefined {
  return (globalThis as { navigator?: { onLine?: boolean } }).navigator;
}

export const online$ = observable(browserNavigator()?.onLine !== false);
export const unreachable$ = observable(false);
/** What the service worker last said it waits for an answer from (the base URL, the config files). */
export const waitingFor$ = observable<string[]>([]);
/** By call key ('GET /api/stock/getStock.do'): epoch ms of the stored answer last shown, null when it was fresh. */
export const cachedAt$ = observable<Record<string, number | null>>({});

export function setOnline(online: boolean): void {
  online$.set(online);
}

export function setUnreachable(unreachable: boolean, waitingFor?: string[]): void {
  unreachable$.set(unreachable);
  if (waitingFor) waitingFor$.set(waitingFor);
}

/** Records where a call's latest answer came from: the station (null) or IndexedDB (the time it was stored). */
export function noteAnswerTime(callKey: string, storedAt: number | null): void {
  if ((cachedAt$.peek()[callKey] ?? null) !== storedAt) cachedAt$.assign({ [callKey]: storedAt });
}
