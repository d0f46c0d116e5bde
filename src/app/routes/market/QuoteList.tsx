import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { Quote, StockMarket } from '../../../shared/api/types';
import { formatMoney } from '../../../shared/format';
import { useCall } from '../../api/use-call';
import { moveClass, PctText } from '../../components/PriceText';
import { Empty, ErrorState, Loading } from '../../components/StatusViews';
import { PRICE_REFRESH_MS, priceDigits } from './market-info';

const PAGE_STEP = 30;
/** API.md "Paging": at most 100 per page. */
const MAX_PAGE_SIZE = 100;

/** One market's quotes, refreshed while visible; a row opens the stock's detail. */
export function QuoteList({ market }: { market: StockMarket }) {
  const { LL } = useI18nContext();
  const [pageSize, setPageSize] = useState(PAGE_STEP);
  const quotes = useCall(
    'GET /api/stock/getStock.do',
    { market, pageNum: 1, pageSize },
    { refreshMs: PRICE_REFRESH_MS },
  );

  if (quotes.loading) return <Loading />;
  if (!quotes.data) return quotes.error ? <ErrorState error={quotes.error} onRetry={quotes.reload} /> : null;
  const { list, total } = quotes.data;
  if (list.length === 0) return <Empty text={LL.market.empty()} />;

  return (
    <div className="quote-list" data-testid={`quote-list-${market}`}>
      <div className="quote-head" aria-hidden="true">
        <span>{LL.market.name()}</span>
        <span>{LL.market.price()}</span>
        <span>{LL.market.changePct()}</span>
      </div>
      <ul>
        {list.map((quote) => (
          <li key={quote.code}>
            <QuoteRow quote={quote} />
          </li>
        ))}
      </ul>
      {quotes.error && <p className="inline-error">{quotes.error.message}</p>}
      {list.length < total && pageSize < MAX_PAGE_SIZE ? (
        <button
          type="button"
          className="button ghost block"
          onClick={() => setPageSize((size) => Math.min(MAX_PAGE_SIZE, size + PAGE_STEP))}
        >
          {LL.common.loadMore()}
        </button>
      ) : (
        <p className="list-end">{LL.common.noMore()}</p>
      )}
    </div>
  );
}

function QuoteRow({ quote }: { quote: Quote }) {
  const { locale } = useI18nContext();
  return (
    <Link
      to="/listdetail"
      search={{ code: quote.code }}
      className="quote-row"
      data-testid={`quote-row-${quote.code}`}
    >
      <span className="quote-name">
        <strong>{quote.name}</strong>
        <small className="num">{quote.code}</small>
      </span>
      <span className={`num quote-price ${moveClass(quote.change)}`} data-value={String(quote.price)}>
        {formatMoney(quote.price, locale, priceDigits(quote.market, quote.price))}
      </span>
      <span className={`change-pill ${moveClass(quote.change)}`}>
        <PctText fraction={quote.changePct} />
      </span>
    </Link>
  );
}
