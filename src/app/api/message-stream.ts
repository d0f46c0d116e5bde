/**
 * The user's messages as they happen (`GET /user/stream/messages`, server/ledger/routes/message-stream.ts):
 * while logged in, one EventSource brings each new message of the station (a fired price alert, a fill, a
 * stop…). Each marks the message lists and the unread count stale; a price alert also shows itself: a toast
 * while the app is on screen, a system notification through the service worker while it is in the
 * background (when the user allowed notifications, which is asked when they set their first alert).
 * The stream stays open while the page is hidden (unlike the quote stream): that is when a notification
 * matters. The browser reconnects by itself and resumes with Last-Event-ID; an id heard twice is shown once.
 */
import { useEffect } from 'react';
import type { UserMessage } from '../../shared/api/types';
import { showToast } from '../state/toast';
import { onApiBase } from './base-url';
import { callPrefix } from './query-keys';
import { queryClient } from './query-client';

export const MESSAGE_STREAM_PATH = '/user/stream/messages';
/** Ids remembered to drop a message heard twice (a resume may repeat one). */
const SEEN_MAX = 200;

function notify(message: UserMessage): void {
  const text = `${message.title}: ${message.content}`;
  if (document.visibilityState === 'visible') {
    showToast(text);
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

/** Holds the message stream open while `loggedIn`, its texts in `locale`. */
export function useMessageStream(loggedIn: boolean, locale: string): void {
  useEffect(() => {
    if (!loggedIn || typeof EventSource === 'undefined') return;
    const source = new EventSource(onApiBase(`${MESSAGE_STREAM_PATH}?lang=${encodeURIComponent(locale)}`), {
      withCredentials: true,
    });
    const seen = new Set<number>();
    source.addEventListener('message', (event: MessageEvent<string>) => {
      let message: UserMessage;
      try {
        message = JSON.parse(event.data) as UserMessage;
      } catch {
        return;
      }
      if (seen.has(message.id)) return;
      seen.add(message.id);
      if (seen.size > SEEN_MAX) seen.delete(seen.values().next().value!);
      heard(message);
    });
    return () => source.close();
  }, [loggedIn, locale]);
}
