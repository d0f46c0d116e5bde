import { useEffect, useState } from 'react';
import { useSelector } from '@legendapp/state/react';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { Market } from '../../../shared/api/types';
import { call, toApiError } from '../../api/client';
import { showAlert } from '../../state/alert';
import { online$ } from '../../state/connection';
import { showLoginPrompt } from '../../state/login-prompt';
import { session$ } from '../../state/session';

/**
 * Add to or remove from the watchlist. spec §5: an index cannot be added, and the button says so rather
 * than hiding (the station answers INDEX_NOT_WATCHABLE too).
 */
export function WatchToggle({
  code,
  market,
  compact = false,
}: {
  code: string;
  market: Market;
  compact?: boolean;
}) {
  const { LL } = useI18nContext();
  const loggedIn = useSelector(() => session$.token.get() !== null);
  const [watched, setWatched] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!loggedIn || market === 'index') return;
    const controller = new AbortController();
    call('GET /user/isOption.do', { code }, { signal: controller.signal }).then(
      (answer) => setWatched(answer.watched),
      () => undefined,
    );
    return () => controller.abort();
  }, [code, market, loggedIn]);

  const toggle = async () => {
    if (!loggedIn) {
      showLoginPrompt();
      return;
    }
    if (market === 'index') {
      showAlert(LL.errors.INDEX_NOT_WATCHABLE(), 'warning');
      return;
    }
    setBusy(true);
    try {
      // Offline the service worker queues the edit and sends it once back online: the alert says so.
      const queued = !online$.peek();
      if (watched) {
        await call('POST /user/delOption.do', { code });
        setWatched(false);
        showAlert(queued ? LL.trading.watchQueued() : LL.trading.watchRemoved(), 'success');
      } else {
        await call('POST /user/addOption.do', { code });
        setWatched(true);
        showAlert(queued ? LL.trading.watchQueued() : LL.trading.watchAdded(), 'success');
      }
    } catch (failure) {
      showAlert(toApiError(failure).message, 'error');
    } finally {
      setBusy(false);
    }
  };

  const label = watched ? LL.trading.watchRemove() : LL.trading.watchAdd();
  return (
    <button
      type="button"
      className={`button ${compact ? 'small ghost' : 'secondary'} watch-toggle ${watched ? 'watched' : ''}`}
      data-testid="watch-toggle"
      data-watched={watched === null ? undefined : String(watched)}
      aria-pressed={watched ?? false}
      disabled={busy}
      onClick={() => void toggle()}
    >
      {watched ? '★' : '☆'} {compact ? null : label}
      {compact && <span className="visually-hidden">{label}</span>}
    </button>
  );
}
