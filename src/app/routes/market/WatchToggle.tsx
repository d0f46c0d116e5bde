import { useI18nContext } from '../../../../locales/i18n-react';
import type { Market } from '../../../shared/api/types';
import type { ApiError } from '../../api/errors';
import { queryClient, useQueryKey, useStationMutation, useStationQuery } from '../../api/station-query';
import { showAlert } from '../../state/alert';
import { online$ } from '../../state/connection';
import { showLoginPrompt } from '../../state/login-prompt';
import { useLoggedIn } from '../../state/use-logged-in';

/**
 * Add to or remove from the watchlist. spec §5: an index cannot be added (the station answers
 * INDEX_NOT_WATCHABLE), so an index's detail offers no button rather than one that only refuses.
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
  const loggedIn = useLoggedIn();
  // Whether it is watched: the station's answer, or offline the service worker's with the edits still waiting.
  const state = useStationQuery('GET /user/isOption.do', loggedIn && market !== 'index' ? { code } : null);
  const stateKey = useQueryKey('GET /user/isOption.do', { code });
  const watched = state.data?.watched ?? null;
  // The answer to a change is shown at once; the change's invalidation then asks again (query-keys.ts).
  const setWatched = (value: boolean) => queryClient.setQueryData(stateKey, { watched: value });
  const add = useStationMutation('POST /user/addOption.do');
  const remove = useStationMutation('POST /user/delOption.do');
  const busy = add.isPending || remove.isPending;

  const toggle = () => {
    if (!loggedIn) {
      showLoginPrompt();
      return;
    }
    // Offline the service worker queues the edit and sends it once back online: the alert says so.
    const queued = !online$.peek();
    const onError = (error: ApiError) => showAlert(error.message, 'error');
    if (watched) {
      remove.mutate(
        { code },
        {
          onSuccess: () => {
            setWatched(false);
            showAlert(queued ? LL.trading.watchQueued() : LL.trading.watchRemoved(), 'success');
          },
          onError,
        },
      );
    } else {
      add.mutate(
        { code },
        {
          onSuccess: () => {
            setWatched(true);
            showAlert(queued ? LL.trading.watchQueued() : LL.trading.watchAdded(), 'success');
          },
          onError,
        },
      );
    }
  };

  if (market === 'index') return null;
  const label = watched ? LL.trading.watchRemove() : LL.trading.watchAdd();
  return (
    <button
      type="button"
      className={`button ${compact ? 'small ghost' : 'secondary'} watch-toggle ${watched ? 'watched' : ''}`}
      data-testid="watch-toggle"
      data-watched={watched === null ? undefined : String(watched)}
      aria-pressed={watched ?? false}
      disabled={busy}
      onClick={toggle}
    >
      {watched ? '★' : '☆'} {compact ? null : label}
      {compact && <span className="visually-hidden">{label}</span>}
    </button>
  );
}
