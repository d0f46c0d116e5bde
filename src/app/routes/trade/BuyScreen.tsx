import { useSearch } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { Direction } from '../../../shared/api/types';
import { type RiskPosition } from '../../../shared/risk';
import { toMinor } from '../../../shared/money';
import { holdingValue, settlementRate } from '../../../shared/pnl';
import { useStationQuery } from '../../api/station-query';
import { ErrorState, Loading } from '../../components/StatusViews';
import { useInstrument, useTradingRules, type InstrumentKind } from '../../api/trading-data';
import { OrderForm } from './order/OrderForm';
import { SETTING_READ, USER_READ } from '../../api/reads';
import { positionsRead } from './trade-reads';
import '../../components/trade.css';

interface BuyProps {
  kind: InstrumentKind;
  /** /twoBuy (margin trading): the first leverage above 1 is chosen to start with. */
  marginTrading?: boolean;
}

/** The order of a screen's search: `?code=` and, from a detail's sell button, `direction=short`. */
function useOrderSearch(): { code: string; direction?: Direction } {
  const search = useSearch({ strict: false }) as { code?: string; direction?: string };
  return {
    code: typeof search.code === 'string' ? search.code.trim() : '',
    ...(search.direction === 'short' ? { direction: 'short' as const } : {}),
  };
}

/** /buy, /TradingBuy, /buyStocks: a stock order (buy.do). */
export function BuyScreen() {
  return <OrderScreen kind="stock" />;
}
/** /twoBuy: margin trading, a stock order starting on borrowed funds. */
export function MarginBuyScreen() {
  return <OrderScreen kind="stock" marginTrading />;
}
/** /indexBuy: an index order in contracts, long or short (buyIndex.do). */
export function IndexBuyScreen() {
  return <OrderScreen kind="index" />;
}
/** /futuresBuy: a futures order in contracts, long or short (buyFutures.do). */
export function FuturesBuyScreen() {
  return <OrderScreen kind="futures" />;
}

function OrderScreen({ kind, marginTrading = false }: BuyProps) {
  const { LL } = useI18nContext();
  const { code, direction } = useOrderSearch();
  const instrument = useInstrument(kind, code || null);
  const rules = useTradingRules();
  const user = useStationQuery(USER_READ.key, USER_READ.input);
  // The account's open positions: the breakdown's liquidation price is the account-wide one (DOMAIN.md).
  const openPositions = positionsRead('open');
  const open = useStationQuery(openPositions.key, openPositions.input);
  // An index quoted in another currency than its account's is settled at the day's rate (DOMAIN.md).
  const payingCurrency =
    instrument.data && rules.data && user.data
      ? user.data.accounts.find((a) => a.type === rules.data!.tradingAccount[instrument.data!.market])
          ?.currency
      : undefined;
  const foreign = payingCurrency !== undefined && instrument.data!.currency !== payingCurrency;
  const rates = useStationQuery('GET /api/site/exchange/rate', foreign ? {} : null);
  // Whether orders need real-name verification on this station (ORDERS_NEED_KYC): said before the user starts.
  const setting = useStationQuery(SETTING_READ.key, SETTING_READ.input);

  if (!code) return <ErrorState error={new Error(LL.detail.missingCode())} />;
  const failed = instrument.error ?? rules.error ?? user.error ?? (foreign ? rates.error : null);
  if (!instrument.data || !rules.data || !user.data || (foreign && !rates.data && !rates.error)) {
    if (failed) {
      const retry = () => {
        instrument.reload();
        rules.reload();
        user.reload();
        rates.reload();
      };
      return <ErrorState error={failed} onRetry={retry} />;
    }
    return <Loading />;
  }
  const accountType = rules.data.tradingAccount[instrument.data.market];
  const account = user.data.accounts.find((a) => a.type === accountType);
  const holdings = (open.data?.list ?? [])
    .filter((p) => rules.data!.tradingAccount[p.market] === accountType)
    .map((p): RiskPosition => ({
      id: p.id,
      code: p.code,
      direction: p.direction,
      shares: p.shares,
      openValue: holdingValue(p.openPrice, p.shares, p.fxRate),
      margin: toMinor(p.margin),
      price: p.currentPrice,
      fxRate: p.fxRate,
    }));
  return (
    <OrderForm
      key={instrument.data.code}
      kind={kind}
      instrument={instrument.data}
      rules={rules.data}
      available={account?.available ?? 0}
      holdings={holdings}
      settlement={
        foreign && rates.data && account
          ? {
              priceCurrency: instrument.data.currency,
              accountCurrency: account.currency,
              rate: settlementRate(rates.data.cnyPer, instrument.data.currency, account.currency),
            }
          : null
      }
      initialDirection={direction ?? 'long'}
      marginTrading={marginTrading}
      account={account}
      accounts={user.data.accounts}
      kycStatus={user.data.kycStatus}
      kycRequired={setting.data?.kycRequiredForOrders ?? false}
    />
  );
}
