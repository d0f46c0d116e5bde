import { useRef, useState, type ReactNode, type TouchEvent } from 'react';
import { useI18nContext } from '../../../locales/i18n-react';

/** How far (px) a pull must go before letting go reloads. */
const PULL_THRESHOLD = 64;

/**
 * Pull to refresh: a downward drag that starts with the page scrolled to the top shows a hint and, past the
 * threshold, reloads the list on release. Touch only; the lists keep their retry buttons for everything else.
 */
export function PullToRefresh({ onRefresh, children }: { onRefresh: () => void; children: ReactNode }) {
  const { LL } = useI18nContext();
  const start = useRef<number | null>(null);
  const [pull, setPull] = useState(0);

  const onTouchStart = (event: TouchEvent) => {
    start.current = window.scrollY <= 0 ? (event.touches[0]?.clientY ?? null) : null;
  };
  const onTouchMove = (event: TouchEvent) => {
    if (start.current === null) return;
    const y = event.touches[0]?.clientY ?? start.current;
    setPull(Math.max(0, Math.min(PULL_THRESHOLD * 1.5, y - start.current)));
  };
  const onTouchEnd = () => {
    if (pull >= PULL_THRESHOLD) onRefresh();
    start.current = null;
    setPull(0);
  };

  return (
    <div
      className="pull-to-refresh"
      onTouchStart={onTouchStart}
      onTouchMove={onTouchMove}
      onTouchEnd={onTouchEnd}
    >
      {pull > 0 && (
        <p className="pull-hint muted small" style={{ height: pull }} aria-live="polite">
          {pull >= PULL_THRESHOLD ? LL.trading.releaseToRefresh() : LL.trading.pullToRefresh()}
        </p>
      )}
      {children}
    </div>
  );
}
