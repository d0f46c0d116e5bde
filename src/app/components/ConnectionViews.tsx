import { useEffect, useRef, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useSelector } from '@legendapp/state/react';
import { useI18nContext } from '../../../locales/i18n-react';
import type { CallKey } from '../../shared/api/calls';
import { formatAsOf } from '../../shared/format';
import {
  MONEY_CALL_STALL_MS,
  pendingOutcomes$,
  stopWaitingForStalledCalls,
  waitingMoneyCalls$,
} from '../api/outcome';
import { cachedAt$, online$, waitingFor$ } from '../state/connection';
import { retryConnection } from '../sw-registration';

/** The shell's banner while the browser is offline: what is shown is saved data, and changes are not sent. */
export function NetworkBanner() {
  const { LL } = useI18nContext();
  const online = useSelector(online$);
  if (online) return null;
  return (
    <div className="network-banner" role="status" data-testid="offline-banner">
      {LL.connection.offlineBanner()}
    </div>
  );
}

/**
 * A money call whose answer was lost and whose outcome the station is being asked for (outcome.ts): shown
 * on every screen until the outcome is known, so an order of unknown fate is never out of sight (the user may
 * have left its sheet).
 */
export function PendingOutcomes() {
  const { LL } = useI18nContext();
  const pending = useSelector(() => Object.keys(pendingOutcomes$.get()).length);
  if (pending === 0) return null;
  return (
    <div className="network-banner" role="status" data-testid="pending-outcome">
      {LL.outcome.checking()}
    </div>
  );
}

/**
 * A money call with no answer after MONEY_CALL_STALL_MS, sent from a screen without its own way out (the buy
 * sheet has one): on every screen, the user may stop waiting; the call is then looked up (outcome.ts) and
 * PendingOutcomes takes over until the station says what became of it.
 */
export function StalledCalls() {
  const { LL } = useI18nContext();
  const oldest = useSelector(() => {
    const since = Object.values(waitingMoneyCalls$.get()).map((waiting) => waiting.since);
    return since.length === 0 ? null : Math.min(...since);
  });
  const [stalled, setStalled] = useState(false);
  useEffect(() => {
    setStalled(false);
    if (oldest === null) return;
    const timer = setTimeout(() => setStalled(true), Math.max(0, oldest + MONEY_CALL_STALL_MS - Date.now()));
    return () => clearTimeout(timer);
  }, [oldest]);
  if (!stalled || oldest === null) return null;
  return (
    <div className="network-banner stalled-call" role="status" data-testid="stalled-call">
      <span>{LL.outcome.stalled()}</span>
      <button
        type="button"
        className="button secondary"
        data-testid="stalled-stop-waiting"
        onClick={() => stopWaitingForStalledCalls()}
      >
        {LL.outcome.stopWaiting()}
      </button>
    </div>
  );
}

/** How often the cannot-connect page tries again by itself while the device is online and the page seen. */
export const AUTO_RETRY_MS = 10_000;

/**
 * spec §8: no base URL answers; the page is replaced by this message, with a retry. It also tries again by
 * itself now and then (a phone back in coverage should not wait for a tap); a found station starts the page again.
 */
export function CannotConnect() {
  const { LL } = useI18nContext();
  const waitingFor = useSelector(waitingFor$);
  // Trying again is a mutation of the connection state: its pending state is the button's, and a station that
  // was found leaves it busy while the page starts again.
  const retrying = useMutation({ mutationFn: () => retryConnection(), networkMode: 'always' });
  const busy = retrying.isPending || retrying.data === true;
  const retry = () => {
    if (!busy) retrying.mutate();
  };
  const retryRef = useRef(retry);
  useEffect(() => {
    retryRef.current = retry;
  });
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible' && online$.peek()) retryRef.current();
    }, AUTO_RETRY_MS);
    return () => clearInterval(timer);
  }, []);
  return (
    <div className="state-view error cannot-connect" role="alert" data-testid="cannot-connect">
      <p>{LL.connection.cannotConnect()}</p>
      <p className="cannot-connect-detail" data-testid="cannot-connect-waiting">
        {waitingFor.length > 0
          ? LL.connection.waitingFor({
              seconds: __PAPERDESK_UNREACHABLE_AFTER_S__,
              sources: waitingFor.join(', '),
            })
          : LL.connection.noAnswerFor({ seconds: __PAPERDESK_UNREACHABLE_AFTER_S__ })}
      </p>
      <button
        type="button"
        className="button primary"
        onClick={retry}
        disabled={busy}
        data-testid="cannot-connect-retry"
      >
        {busy ? LL.connection.retrying() : LL.common.retry()}
      </button>
    </div>
  );
}

/**
 * When the oldest of the answers of `calls` on screen was stored, if any came from the device's store rather
 * than the station: a screen built from several calls is as old as its oldest part.
 */
export function useCachedAt(calls: CallKey | readonly CallKey[]): number | null {
  const keys: readonly CallKey[] = typeof calls === 'string' ? [calls] : calls;
  return useSelector(() => {
    const stored = cachedAt$.get();
    let oldest: number | null = null;
    for (const key of keys) {
      const at = stored[key] ?? null;
      if (at !== null && (oldest === null || at < oldest)) oldest = at;
    }
    return oldest;
  });
}

/**
 * "offline · as of 14:32" (with its date when not today: "as of 23 Nov 14:32") above data read from the
 * device's store (the service worker's X-Cached-At): the screen says how old what it shows is. Online, a stored
 * answer being refreshed says "as of 14:32". A screen built from several calls passes them all.
 */
export function AsOfNote({ call }: { call: CallKey | readonly CallKey[] }) {
  const { LL, locale } = useI18nContext();
  const storedAt = useCachedAt(call);
  const online = useSelector(online$);
  if (storedAt === null) return null;
  const time = formatAsOf(storedAt, Date.now(), locale);
  return (
    <p className="as-of-note" role="status" data-testid="as-of">
      {online ? LL.connection.asOf({ time }) : LL.connection.offlineAsOf({ time })}
    </p>
  );
}
