import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useSelector } from '@legendapp/state/react';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { Quote } from '../../../shared/api/types';
import { formatMoney } from '../../../shared/format';
import { call, toApiError } from '../../api/client';
import { streamCarries, useLiveQuote } from '../../api/live-quotes';
import { useCall } from '../../api/use-call';
import { LoggedOutPrompt } from '../../components/LoggedOutPrompt';
import { PctText, moveClass } from '../../components/PriceText';
import { Empty, ErrorState, Loading } from '../../components/StatusViews';
import { showAlert } from '../../state/alert';
import { session$ } from '../../state/session';
import { detailLink } from './detail-link';
import { PRICE_REFRESH_MS, priceDigits } from './market-info';
import { PullToRefresh } from './PullToRefresh';
import './market.css';

/** /MyList (tab) and /mylist: the watchlist with live prices; a row opens the detail, the cross removes it. */
export function WatchlistScreen() {
  const { LL } = useI18nContext();
  const loggedIn = useSelector(() => session$.token.get() !== null);
  const list = useCall('GET /user/option/list.do', loggedIn ? {} : null, { refreshMs: PRICE_REFRESH_MS });
  const [removed, setRemoved] = useState<ReadonlySet<string>>(new Set());
  if (!loggedIn) return <LoggedOutPrompt />;

  const remove = async (code: string) => {
    try {
      await call('POST /user/delOption.do', { code });
      setRemoved((prev) => new Set(prev).add(code));
      showAlert(LL.trading.watchRemoved(), 'success');
      list.reload();
    } catch (failure) {
      showAlert(toApiError(failure).message, 'error');
    }
  };

  let body;
  if (list.loading) body = <Loading />;
  else if (!list.data) body = list.error ? <ErrorState error={list.error} onRetry={list.reload} /> : null;
  else {
    const quotes = list.data.filter((q) => !removed.has(q.code));
    body =
      quotes.length === 0 ? (
        <Empty text={LL.trading.watchEmpty()} />
      ) : (
        <ul className="quote-list watch-list" data-testid="watchlist">
          {quotes.map((quote) => (
            <li key={quote.code}>
              <WatchRow quote={quote} onRemove={() => void remove(quote.code)} />
            </li>
          ))}
        </ul>
      );
  }
  return (
    <div className="market-screen">
      <PullToRefresh onRefresh={list.reload}>
        {body}
        {list.data && list.error && <p className="inline-error">{list.error.message}</p>}
      </PullToRefresh>
      <Link to="/searchmylist" className="button ghost block" data-testid="watch-add">
        + {LL.trading.watchAdd()}
      </Link>
    </div>
  );
}

function WatchRow({ quote, onRemove }: { quote: Quote; onRemove: () => void }) {
  const { LL, locale } = useI18nContext();
  const streamed = useLiveQuote(streamCarries(quote.market) ? quote.code : undefined);
  const live = streamed && streamed.time >= quote.time ? streamed : quote;
  const link = detailLink(quote.code, quote.market);
  return (
    <div className="quote-row" data-testid={`watch-row-${quote.code}`}>
      <Link to={link.to} search={link.search} className="quote-name plain-link">
        <strong>{quote.name}</strong>
        <small className="num">{quote.code}</small>
      </Link>
      <span className={`num quote-price ${moveClass(live.change)}`}>
        {formatMoney(live.price, locale, priceDigits(quote.market, live.price))}
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
