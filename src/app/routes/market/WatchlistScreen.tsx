import { useEffect, useRef, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { Quote } from '../../../shared/api/types';
import { formatMoney } from '../../../shared/format';
import { toApiError } from '../../api/client';
import { streamCarries, useLiveQuote } from '../../api/live-quotes';
import { useStationMutation, useStationQuery } from '../../api/station-query';
import { WATCHLIST_READ } from './market-reads';
import { AsOfNote } from '../../components/ConnectionViews';
import { LoggedOutPrompt } from '../../components/LoggedOutPrompt';
import { PctText, moveClass } from '../../components/PriceText';
import { MarketTag } from '../../components/MarketTag';
import { Empty, ErrorState, Loading } from '../../components/StatusViews';
import { showAlert } from '../../state/alert';
import { online$ } from '../../state/connection';
import { detailLink } from './detail-link';
import { PRICE_REFRESH_MS, priceDigits } from '../../components/market-info';
import { PullToRefresh } from '../../components/PullToRefresh';
import './market.css';
import { useLoggedIn } from '../../state/use-logged-in';

/** A code moved within the order: to the top, or one place up or down. */
function moved(order: readonly string[], code: string, to: 'top' | 'up' | 'down'): string[] {
  const from = order.indexOf(code);
  const next = order.filter((c) => c !== code);
  const at = to === 'top' ? 0 : to === 'up' ? Math.max(0, from - 1) : Math.min(order.length - 1, from + 1);
  next.splice(at, 0, code);
  return next;
}

/** How long a removed row can be brought back (Undo) before its removal is sent. */
const UNDO_MS = 5000;

/**
 * /MyList (tab) and /mylist: the watchlist with live prices; the whole row opens the detail, the cross
 * removes it after a few seconds in which Undo brings it back (leaving the screen sends it at once).
 * Edit mode arranges the list (to the top, up, down); each move is saved on the station at once. Offline
 * the last list shows "as of"; edits are queued by the service worker, shown at once (its answer applies
 * them) and sent once back online.
 */
export function WatchlistScreen() {
  const { LL } = useI18nContext();
  const loggedIn = useLoggedIn();
  const list = useStationQuery(WATCHLIST_READ.key, loggedIn ? WATCHLIST_READ.input : null, {
    refetchInterval: PRICE_REFRESH_MS,
  });
  const [removed, setRemoved] = useState<ReadonlySet<string>>(new Set());
  const [editing, setEditing] = useState(false);
  /** The order the user arranged, shown until the list's next answer carries it. */
  const [arranged, setArranged] = useState<readonly string[] | null>(null);
  /** The row removed a moment ago, hidden while Undo can bring it back. */
  const [undoable, setUndoable] = useState<string | null>(null);
  const undoTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const pendingSend = useRef<(() => void) | null>(null);
  const sort = useStationMutation('POST /user/option/sort.do');
  const removal = useStationMutation('POST /user/delOption.do');
  // Leaving the screen sends a removal still waiting for its Undo.
  useEffect(() => () => pendingSend.current?.(), []);
  if (!loggedIn) return <LoggedOutPrompt />;

  const move = async (codes: readonly string[], code: string, to: 'top' | 'up' | 'down') => {
    const order = moved(codes, code, to);
    setArranged(order);
    try {
      // The list refreshes by the change's invalidation (query-keys.ts).
      await sort.mutateAsync({ codes: order.join(',') });
    } catch (failure) {
      setArranged(null);
      showAlert(toApiError(failure).message, 'error');
    }
  };

  const sendRemoval = async (code: string) => {
    setRemoved((prev) => new Set(prev).add(code));
    try {
      // Sent even when the screen has been left (a mutation outlives it); the list refreshes by its
      // invalidation (query-keys.ts).
      await removal.mutateAsync({ code });
      if (!online$.peek()) showAlert(LL.trading.watchQueued(), 'success');
    } catch (failure) {
      setRemoved((prev) => {
        const next = new Set(prev);
        next.delete(code);
        return next;
      });
      showAlert(toApiError(failure).message, 'error');
    }
  };
  const remove = (code: string) => {
    // A removal still waiting is sent now: one Undo at a time.
    pendingSend.current?.();
    const send = () => {
      clearTimeout(undoTimer.current);
      pendingSend.current = null;
      setUndoable(null);
      void sendRemoval(code);
    };
    pendingSend.current = send;
    setUndoable(code);
    undoTimer.current = setTimeout(send, UNDO_MS);
  };
  const undo = () => {
    clearTimeout(undoTimer.current);
    pendingSend.current = null;
    setUndoable(null);
  };

  // The first load is one placeholder for the whole screen, replaced as a whole: the toolbar and the
  // list arriving would otherwise push what is below them (the add button) down, a layout shift.
  if (list.loading)
    return (
      <div className="market-screen">
        <Loading />
      </div>
    );
  let body;
  if (!list.data) body = list.error ? <ErrorState error={list.error} onRetry={list.reload} /> : null;
  else {
    const shown = list.data.filter((q) => !removed.has(q.code) && q.code !== undoable);
    const rank = new Map((arranged ?? []).map((code, index) => [code, index]));
    const quotes = arranged
      ? [...shown].sort((a, b) => (rank.get(a.code) ?? -1) - (rank.get(b.code) ?? -1))
      : shown;
    const codes = quotes.map((q) => q.code);
    body =
      quotes.length === 0 ? (
        <Empty text={LL.trading.watchEmpty()} />
      ) : (
        <>
          <div className="quote-head watch-head" aria-hidden="true">
            <span>{LL.market.name()}</span>
            <span>{LL.market.price()}</span>
            <span>{LL.market.changePct()}</span>
            <span />
          </div>
          <ul className="quote-list watch-list" data-testid="watchlist" data-editing={editing}>
            {quotes.map((quote, index) => (
              <li key={quote.code}>
                {editing ? (
                  <ArrangeRow
                    quote={quote}
                    first={index === 0}
                    last={index === quotes.length - 1}
                    onMove={(to) => void move(codes, quote.code, to)}
                  />
                ) : (
                  <WatchRow quote={quote} onRemove={() => remove(quote.code)} />
                )}
              </li>
            ))}
          </ul>
        </>
      );
  }
  return (
    <div className="market-screen">
      {list.data && list.data.length > 1 && (
        <div className="watch-toolbar">
          <button
            type="button"
            className="button ghost small"
            data-testid="watch-edit"
            aria-pressed={editing}
            onClick={() => setEditing((on) => !on)}
          >
            {editing ? LL.trading.watchEditDone() : LL.trading.watchEdit()}
          </button>
        </div>
      )}
      <PullToRefresh onRefresh={list.reload}>
        {list.data && <AsOfNote call="GET /user/option/list.do" />}
        {body}
        {list.data && list.error && <p className="inline-error">{list.error.message}</p>}
      </PullToRefresh>
      <Link to="/searchmylist" className="button ghost block" data-testid="watch-add">
        + {LL.trading.watchAdd()}
      </Link>
      {undoable && (
        <div className="undo-bar" role="status" data-testid="watch-undo-bar">
          <span>{LL.market.watchRemovedUndo()}</span>
          <button type="button" className="button secondary small" data-testid="watch-undo" onClick={undo}>
            {LL.market.watchUndo()}
          </button>
        </div>
      )}
    </div>
  );
}

function WatchRow({ quote, onRemove }: { quote: Quote; onRemove: () => void }) {
  const { LL, locale } = useI18nContext();
  const streamed = useLiveQuote(streamCarries(quote.market) ? quote.code : undefined);
  const live = streamed && streamed.time >= quote.time ? streamed : quote;
  const link = detailLink(quote.code, quote.market);
  return (
    <div className="quote-row watch-row" data-testid={`watch-row-${quote.code}`}>
      {/* The link stretches over the whole row (market.css); the cross sits above it. */}
      <Link to={link.to} search={link.search} className="quote-name row-link" data-testid="watch-open">
        <strong>{quote.name}</strong>
        <span className="code-line">
          <MarketTag code={quote.code} market={quote.market} />
          <small className="num">{quote.code}</small>
        </span>
      </Link>
      <span className={`num quote-price ${moveClass(live.change)}`}>
        {formatMoney(live.price, locale, priceDigits(quote.market, live.price, quote.code))}
      </span>
      <span className={`change-pill ${moveClass(live.change)}`}>
        <PctText fraction={live.changePct} />
      </span>
      <button
        type="button"
        className="icon-button"
        aria-label={LL.trading.watchRemove()}
        data-testid="watch-remove"
        onClick={onRemove}
      >
        ×
      </button>
    </div>
  );
}

/** A row in edit mode: the name, and buttons to move it to the top, up or down. */
function ArrangeRow({
  quote,
  first,
  last,
  onMove,
}: {
  quote: Quote;
  first: boolean;
  last: boolean;
  onMove: (to: 'top' | 'up' | 'down') => void;
}) {
  const { LL } = useI18nContext();
  return (
    <div className="quote-row arrange-row" data-testid={`arrange-row-${quote.code}`}>
      <span className="quote-name">
        <strong>{quote.name}</strong>
        <span className="code-line">
          <MarketTag code={quote.code} market={quote.market} />
          <small className="num">{quote.code}</small>
        </span>
      </span>
      <button
        type="button"
        className="icon-button"
        aria-label={LL.trading.watchMoveTop()}
        data-testid="watch-top"
        disabled={first}
        onClick={() => onMove('top')}
      >
        ⤒
      </button>
      <button
        type="button"
        className="icon-button"
        aria-label={LL.trading.watchMoveUp()}
        data-testid="watch-up"
        disabled={first}
        onClick={() => onMove('up')}
      >
        ↑
      </button>
      <button
        type="button"
        className="icon-button"
        aria-label={LL.trading.watchMoveDown()}
        data-testid="watch-down"
        disabled={last}
        onClick={() => onMove('down')}
      >
        ↓
      </button>
    </div>
  );
}
