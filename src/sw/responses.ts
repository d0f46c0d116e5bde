/** Answers the service worker makes itself, in the station's envelope (API.md) with a telling header. */
import {
  CACHED_AT_HEADER,
  NOT_SENT_HEADER,
  QUEUED_HEADER,
  TOO_OLD_HEADER,
  UNREACHABLE_HEADER,
} from '../shared/sw-protocol';

function json(body: unknown, status: number, headers: Record<string, string>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
  });
}

/** A stored answer, marked with when the station gave it. */
export function cachedAnswer(data: unknown, cachedAt: number): Response {
  return json({ status: 0, msg: '', data }, 200, { [CACHED_AT_HEADER]: new Date(cachedAt).toISOString() });
}

/** No answer, and the stored one (given at `cachedAt`) is too old to pass for current. */
export function tooOld(cachedAt: number): Response {
  return json({ status: 1, code: 'NETWORK', msg: '' }, 503, {
    [TOO_OLD_HEADER]: new Date(cachedAt).toISOString(),
  });
}

/** A call refused before sending because the device is offline: the station received nothing. */
export function notSent(): Response {
  return json({ status: 1, code: 'NETWORK', msg: '' }, 503, { [NOT_SENT_HEADER]: 'offline' });
}

/** No base URL answers (spec §8): nothing was sent either. */
export function unreachable(): Response {
  return json({ status: 1, code: 'NETWORK', msg: '' }, 503, { [UNREACHABLE_HEADER]: '1' });
}

/** A watchlist edit kept to be sent later: the app treats it as done. */
export function queued(): Response {
  return json({ status: 0, msg: '', data: null }, 202, { [QUEUED_HEADER]: '1' });
}

/** Reads an answer's envelope: its data when it says status 0, else undefined (nothing to store). */
export async function successData(response: Response): Promise<{ data: unknown } | undefined> {
  if (!response.ok) return undefined;
  try {
    const body: unknown = await response.clone().json();
    if (typeof body !== 'object' || body === null || (body as { status?: unknown }).status !== 0) {
      return undefined;
    }
    return { data: (body as { data?: unknown }).data };
  } catch {
    return undefined;
  }
}
