import { useSearch } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { Direction, Market } from '../../../shared/api/types';
import { type RiskPosition } from '../../../shared/risk';
import { toMinor } from '../../../shared/money';
import { holdingValue, settlementRate } from '../../../shared/pnl';
import { useStationQuery } from '../../api/station-query';
import { ErrorState, Loading } from '../../components/StatusViews';
import { useInstrument, useTradingRules, type InstrumentKind } from '../../api/trading-data';
import { OrderForm } from './order/OrderForm';
import { SETTING_READ, USER_READ } from '../../api/reads';
import { competitionAccountsRead, positionsRead } from './trade-reads';
import { currencyOfAccount, payingCompetitionAccount } from './competition-trading';
import { TradingAccountSwitcher } from './TradingAccountSwitcher';
import { useTradingAccount, type TradingAccount } from './use-trading-account';
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

/**
 * The paying account of an order of `market` and the open positions that share it (the breakdown's
 * liquidation price is account-wide, DOMAIN.md): the user's own account trading that market, or under a
 * competition its account in that account's currency (competition-trading.ts).
 */
function usePayingAccount(trading: TradingAccount, market: Market | undefined) {
  const rules = useTradingRules();
  const user = useStationQuery(USER_READ.key, USER_READ.input);
  const { competitionId } = trading;
  const openPositions = positionsRead('open', competitionId);
  const open = useStationQuery(openPositions.key, openPositions.input);
  const competitionAccounts = useStationQuery(
    'GET /user/competition/accounts.do',
    competitionId === undefined ? null : competitionAccountsRead(competitionId).input,
  );
  const failed = rules.error ?? user.error ?? competitionAccounts.error;
  const reload = () => {
    rules.reload();
    user.reload();
    competitionAccounts.reload();
  };
  if (!rules.data || !user.data || !market || (competitionId !== undefined && !competitionAccounts.data)) {
    return { ready: false as const, failed, reload };
  }
  const { tradingAccount } = rules.data;
  const own = user.data.accounts;
  const account = competitionAccounts.data
    ? payingCompetitionAccount(competitionAccounts.data, own, tradingAccount, market)
    : own.find((a) => a.type === tradingAccount[market]);
  // The positions paid from the same account: by account type, or inside a competition by currency.
  const sameAccount = (m: Market) =>
    competitionAccounts.data
      ? currencyOfAccount(own, tradingAccount[m]) === account?.currency
      : tradingAccount[m] === tradingAccount[market];
  const holdings = (open.data?.list ?? [])
    .filter((p) => sameAccount(p.market))
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
  return { ready: true as const, rules: rules.data, user: user.data, account, holdings, failed, reload };
}

function OrderScreen({ kind, marginTrading = false }: BuyProps) {
  const { LL } = useI18nContext();
  const { code, direction } = useOrderSearch();
  const trading = useTradingAccount();
  const instrument = useInstrument(kind, code || null);
  const paying = usePayingAccount(trading, instrument.data?.market);
  // An index quoted in another currency than its account's is settled at the day's rate (DOMAIN.md).
  const payingCurrency = paying.ready ? paying.account?.currency : undefined;
  const foreign = payingCurrency !== undefined && instrument.data!.currency !== payingCurrency;
  const rates = useStationQuery('GET /api/site/exchange/rate', foreign ? {} : null);
  // Whether orders need real-name verification on this station (ORDERS_NEED_KYC): said before the user starts.
  const setting = useStationQuery(SETTING_READ.key, SETTING_READ.input);

  if (!code) return <ErrorState error={new Error(LL.detail.missingCode())} />;
  if (trading.choiceError) return <ErrorState error={trading.choiceError} onRetry={trading.reload} />;
  const failed = instrument.error ?? paying.failed ?? (foreign ? rates.error : null);
  if (trading.pending || !instrument.data || !paying.ready || (foreign && !rates.data && !rates.error)) {
    if (failed) {
      const retry = () => {
        instrument.reload();
        paying.reload();
        rates.reload();
      };
      return <ErrorState error={failed} onRetry={retry} />;
    }
    return <Loading />;
  }
  const { account, rules, user } = paying;
  return (
    <>
      <TradingAccountSwitcher account={trading} />
      <OrderForm
        key={`${instrument.data.code}|${trading.competitionId ?? 'own'}`}
        kind={kind}
        instrument={instrument.data}
        rules={rules}
        available={account?.available ?? 0}
        holdings={paying.holdings}
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
        accounts={user.accounts}
        competition={trading.competition}
        kycStatus={user.kycStatus}
        kycRequired={setting.data?.kycRequiredForOrders ?? false}
      />
    </>
  );
}
