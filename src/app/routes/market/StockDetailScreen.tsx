import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useSelector } from '@legendapp/state/react';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { StockDetail } from '../../../shared/api/types';
import { formatMoney } from '../../../shared/format';
import { streamCarries, useLiveQuote } from '../../api/live-quotes';
import { useCall } from '../../api/use-call';
import { KlineChart } from '../../chart/KlineChart';
import { moveClass, PctText } from '../../components/PriceText';
import { ErrorState, Loading } from '../../components/StatusViews';
import { showLoginPrompt } from '../../state/login-prompt';
import { session$ } from '../../state/session';
import { MARKET_TIME_ZONE, PRICE_REFRESH_MS, priceDigits } from './market-info';

const route = getRouteApi('/listdetail');

/** /listdetail?code=: the quote header, the day K-line and the Buy button. */
export function StockDetailScreen() {
  const { LL } = useI18nContext();
  const { code } = route.useSearch();
  const stock = useCall('GET /api/stock/getSingleStock.do', code ? { code } : null, {
    refreshMs: PRICE_REFRESH_MS,
  });

  if (!code) return <ErrorState error={new Error(LL.detail.missingCode())} />;
  if (stock.loading) return <Loading />;
  if (!stock.data) return stock.error ? <ErrorState error={stock.error} onRetry={stock.reload} /> : null;
  return <StockDetailView stock={stock.data} staleError={stock.error?.message} />;
}

function StockDetailView({ stock, staleError }: { stock: StockDetail; staleError?: string }) {
  const { LL, locale } = useI18nContext();
  const navigate = useNavigate();
  const loggedIn = useSelector(() => session$.token.get() !== null);
  const digits = priceDigits(stock.market, stock.price);
  const price = (value: number) => formatMoney(value, locale, digits);
  // The header's price follows the live stream; the detail call's refresh still updates the rest.
  const streamed = useLiveQuote(streamCarries(stock.market) ? stock.code : undefined);
  const live = streamed && streamed.time >= stock.time ? streamed : stock;
  const move = moveClass(live.change);

  const figures: { label: string; value: string; testId?: string }[] = [
    { label: LL.detail.open(), value: price(stock.open) },
    { label: LL.detail.high(), value: price(stock.high) },
    { label: LL.detail.low(), value: price(stock.low) },
    { label: LL.detail.prevClose(), value: price(stock.prevClose) },
  ];
  if (stock.limitUp !== null) figures.push({ label: LL.detail.limitUp(), value: price(stock.limitUp) });
  if (stock.limitDown !== null) figures.push({ label: LL.detail.limitDown(), value: price(stock.limitDown) });
  figures.push(
    { label: LL.detail.lotSize(), value: LL.detail.lotSizeValue({ n: stock.lotSize }) },
    { label: LL.detail.currency(), value: stock.currency },
    {
      label: LL.detail.settlement(),
      value: stock.tPlus ? LL.detail.tPlusOne() : LL.detail.tPlusZero(),
      testId: 'detail-settlement',
    },
    { label: LL.detail.volume(), value: formatMoney(stock.volume, locale, 0) },
    { label: LL.detail.turnover(), value: formatMoney(stock.turnover, locale, 0) },
  );

  const onBuy = () => {
    if (!loggedIn) {
      showLoginPrompt();
      return;
    }
    void navigate({ to: '/buy', search: { code: stock.code } });
  };

  return (
    <div className="detail-screen">
      <section className="quote-header">
        <div className="quote-title">
          <h2>{stock.name}</h2>
          <span className="num muted">{stock.code}</span>
          <span className={`status-tag status-${stock.status}`}>{LL.detail.status[stock.status]()}</span>
        </div>
        <div className={`quote-price-line ${move}`}>
          <span className="num detail-price" data-testid="detail-price" data-value={String(live.price)}>
            {price(live.price)}
          </span>
          <span className="num">
            {live.change > 0 ? '+' : ''}
            {price(live.change)}
          </span>
          <PctText fraction={live.changePct} />
        </div>
        <dl className="figure-grid">
          {figures.map((figure) => (
            <div key={figure.label}>
              <dt>{figure.label}</dt>
              <dd className="num" data-testid={figure.testId}>
                {figure.value}
              </dd>
            </div>
          ))}
        </dl>
        {staleError && <p className="inline-error">{staleError}</p>}
      </section>

      <KlineChart code={stock.code} market={stock.market} timeZone={MARKET_TIME_ZONE[stock.market]} />

      <div className="action-bar">
        <button
          type="button"
          className="button primary block buy"
          data-testid="buy-button"
          disabled={stock.status === 'suspended'}
          onClick={onBuy}
        >
          {LL.detail.buy()}
        </button>
      </div>
    </div>
  );
}
