import { getRouteApi } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import { formatMoney } from '../../../shared/format';
import { KlineChart } from '../../chart/KlineChart';
import { moveClass, PctText } from '../../components/PriceText';
import { BackButton } from '../../components/BackButton';
import { ErrorState, Loading } from '../../components/StatusViews';
import { useInstrument } from '../../api/trading-data';
import { MARKET_TIME_ZONE, priceDigits } from '../../components/market-info';

const route = getRouteApi('/kline');

/**
 * /kline?code=[&market=index|futures]: the full-screen candle chart of a stock, index or future, under a
 * one-line quote.
 */
export function KlineScreen() {
  const { LL, locale } = useI18nContext();
  const { code, market } = route.useSearch();
  const stock = useInstrument(market ?? 'stock', code || null);

  if (!code) return <ErrorState error={new Error(LL.detail.missingCode())} />;
  if (stock.loading) return <Loading />;
  if (!stock.data) return stock.error ? <ErrorState error={stock.error} onRetry={stock.reload} /> : null;
  const s = stock.data;
  return (
    <div className="kline-screen" data-testid="kline-screen">
      <div className={`quote-title kline-quote ${moveClass(s.change)}`}>
        {/* The view covers the title bar (it lays out in landscape), so it carries its own way back. */}
        <BackButton testId="kline-back" />
        <h2>{s.name}</h2>
        <span className="num muted">{s.code}</span>
        <span className="num">{formatMoney(s.price, locale, priceDigits(s.market, s.price, s.code))}</span>
        <PctText fraction={s.changePct} />
      </div>
      <KlineChart code={s.code} market={s.market} timeZone={MARKET_TIME_ZONE[s.market]} fullScreen />
    </div>
  );
}
