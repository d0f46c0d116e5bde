/**
 * The user's messages as they happen (`GET /user/stream/messages`, server/ledger/routes/message-stream.ts):
 * while logged in, one server-sent-event stream brings each new message of the station (a fired price alert,
 * a fill, a stop…). Each marks the message lists and the unread count stale; a price alert also shows
 * itself: a toast while the app is on screen, a system notification through the service worker while it is
 * in the background (when the user allowed notifications, which is asked when they set their first alert).
 *
 * Read with fetch, not EventSource: the station knows the user by the bearer token (API.md), which an
 * EventSource cannot send. eventsource-parser reads the event format. A dropped connection is opened again
 * with backoff and `Last-Event-ID`, so the station first sends what was missed; an id heard twice is shown
 * once. The stream stays open while the page is hidden (unlike the quote stream): that is when a
 * notification matters. A 401 ends it (the session is gone; the next login opens a new one). It opens once
 * the first screen has settled (`settled`).
 */
import { useEffect } from 'react';
import { createParser } from 'eventsource-parser';
import type { UserMessage } from '../../shared/api/types';
import { showToast } from '../state/toast';
import { onApiBase } from './base-url';
import { callPrefix } from './query-keys';
import { queryClient } from './query-client';

export const MESSAGE_STREAM_PATH = '/user/stream/messages';
/** Backoff of a new connection after a failure: 1 s, 2 s, 4 s … at most 30 s. */
const RECONNECT_BASE_MS = 1000;
const RECONNECT_MAX_MS = 30_000;
/** Ids remembered to drop a message heard twice (a resume may repeat one). */
const SEEN_MAX = 200;
/**
 * The stream opens once the page has loaded and the app has had no call in flight for this long (at the
 * latest after START_AT_MOST_MS): nothing on a first screen needs it, and on a slow link it must not compete
 * with the screen's own data. A message written meanwhile is not lost: it is in the message centre.
 */
const START_WHEN_QUIET_MS = 3000;
const START_AT_MOST_MS = 15_000;
const START_CHECK_MS = 500;

/** Resolves once the page is loaded and the app's calls have been quiet for START_WHEN_QUIET_MS. */
function settled(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const started = Date.now();
    let quietSince: number | null = null;
    const check = () => {
      if (signal.aborted) return resolve();
      const now = Date.now();
      const busy =
        document.readyState !== 'complete' || queryClient.isFetching() > 0 || queryClient.isMutating() > 0;
      quietSince = busy ? null : (quietSince ?? now);
      if (
        (quietSince !== null && now - quietSince >= START_WHEN_QUIET_MS) ||
        now - started >= START_AT_MOST_MS
      ) {
        return resolve();
      }
      setTimeout(check, START_CHECK_MS);
    };
    check();
  });
}

function notify(message: UserMessage): void {
  if (document.visibilityState === 'visible') {
    showToast(`${message.title}: ${message.content}`);
    return;
  }
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const options: NotificationOptions = {
    body: message.content,
    tag: `message-${message.id}`,
    data: { url: `/alertdetail?id=${message.id}` },
  };
  if ('serviceWorker' in navigator) {
    void navigator.serviceWorker.ready.then((registration) =>
      registration.showNotification(message.title, options),
    );
  } else {
    new Notification(message.title, options);
  }
}

function heard(message: UserMessage): void {
  void queryClient.invalidateQueries({ queryKey: callPrefix('GET /user/cash/getMessagelist.do') });
  void queryClient.invalidateQueries({ queryKey: callPrefix('GET /user/cash/getUnreadCount.do') });
  if (message.kind === 'alert') {
    void queryClient.invalidateQueries({ queryKey: callPrefix('GET /user/alert/list.do') });
    notify(message);
  }
}

class SessionEnded extends Error {}

/**
 * Reads one connection until it ends: each `message` event to `onMessage`, the last event id to `onId`.
 * Throws SessionEnded on 401, any other error when the connection fails.
 */
async function readOnce(
  url: string,
  token: string,
  lastId: string | null,
  signal: AbortSignal,
  on: { message(message: UserMessage): void; id(id: string): void; open(): void },
): Promise<void> {
  const headers: Record<string, string> = { Accept: 'text/event-stream', Authorization: `Bearer ${token}` };
  if (lastId !== null) headers['Last-Event-ID'] = lastId;
  const res = await fetch(url, { headers, signal, cache: 'no-store' });
  if (res.status === 401) throw new SessionEnded();
  if (!res.ok || !res.body) throw new Error(`message stream: HTTP ${res.status}`);
  on.open();
  const parser = createParser({
    onEvent(event) {
      if (event.id) on.id(event.id);
      if (event.event !== 'message') return;
      try {
        on.message(JSON.parse(event.data) as UserMessage);
      } catch {
        // A malformed event is skipped; the message list still has it.
      }
    },
  });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    parser.feed(value);
  }
}

/** Holds the message stream open while there is a session (`token`), its texts in `locale`. */
export function useMessageStream(token: string | null, locale: string): void {
  useEffect(() => {
    if (token === null || typeof fetch === 'undefined' || typeof TextDecoderStream === 'undefined') return;
    const controller = new AbortController();
    const url = onApiBase(`${MESSAGE_STREAM_PATH}?lang=${encodeURIComponent(locale)}`);
    const seen = new Set<number>();
    let lastId: string | null = null;
    let failures = 0;
    const on = {
      open: () => {
        failures = 0;
      },
      id: (id: string) => {
        lastId = id;
      },
      message: (message: UserMessage) => {
        if (seen.has(message.id)) return;
        seen.add(message.id);
        if (seen.size > SEEN_MAX) seen.delete(seen.values().next().value!);
        heard(message);
      },
    };
    void (async () => {
      await settled(controller.signal);
      while (!controller.signal.aborted) {
        try {
          await readOnce(url, token, lastId, controller.signal, on);
        } catch (error) {
          if (error instanceof SessionEnded || controller.signal.aborted) return;
          failures++;
        }
        const wait = Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** Math.min(failures, 5));
        await new Promise((resolve) => setTimeout(resolve, failures === 0 ? RECONNECT_BASE_MS : wait));
      }
    })();
    return () => controller.abort();
  }, [token, locale]);
}
