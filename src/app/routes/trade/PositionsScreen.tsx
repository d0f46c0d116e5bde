import { useEffect, useState } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { Currency, Market, Position } from '../../../shared/api/types';
import type { Competition } from '../../../shared/api/competitions';
import { streamCarries } from '../../api/live-quotes';
import { useStationQuery } from '../../api/station-query';
import { Empty, ErrorState, Loading } from '../../components/StatusViews';
import { Tabs } from '../../components/Tabs';
import { PRICE_REFRESH_MS } from '../../components/market-info';
import { PullToRefresh } from '../../components/PullToRefresh';
import { SubAccountPositions } from './SubAccountPositions';
import { liveLiquidationPrices } from './live-liquidation';
import { summaryByCurrency } from './currency-summary';
import { useTradingRules } from '../../api/trading-data';
import { USER_READ } from '../../api/reads';
import { competitionAccountsRead, positionsRead } from './trade-reads';
import { currencyOfAccount } from './competition-trading';
import { CompetitionEquity } from './CompetitionEquity';
import { TradingAccountSwitcher } from './TradingAccountSwitcher';
import { useTradingAccount } from './use-trading-account';
import { useLivePrices } from './live-position';
import { OpenPositionRow, ClosedPositionRow, AmountFigure } from './PositionRows';
import { OrderList } from './OrderList';
import { useListedAccounts } from './listed-accounts';
import '../../components/trade.css';

export type PositionsTab = 'open' | 'orders' | 'closed';
/** Which instruments a list shows: stocks (/holdorderlist, /sellorderlist), or indexes and futures (…2). */
export type PositionGroup = 'all' | 'stocks' | 'contracts';

/** API.md "Paging": at most 100 per page. */

function inGroup(market: Position['market'], group: PositionGroup): boolean {
  if (group === 'all') return true;
  const contract = market === 'index' || market === 'futures';
  return group === 'contracts' ? contract : !contract;
}

/** /warehouse: open positions, limit orders and closed positions, as tabs (`?tab=`). */
export function PositionsScreen() {
  const { LL } = useI18nContext();
  const search = useSearch({ strict: false }) as { tab?: string; state?: string };
  const navigate = useNavigate();
  const tab: PositionsTab =
    search.tab === 'orders'
      ? 'orders'
      : search.tab === 'closed' || search.state === 'closed'
        ? 'closed'
        : 'open';
  const tabs: readonly { key: PositionsTab; label: string; testId: string }[] = [
    { key: 'open', label: LL.positions.tabOpen(), testId: 'positions-tab-open' },
    { key: 'orders', label: LL.trading.tabOrders(), testId: 'positions-tab-orders' },
    { key: 'closed', label: LL.positions.tabClosed(), testId: 'positions-tab-closed' },
  ];
  const trading = useTradingAccount();
  const { competition, competitionId } = trading;
  let body;
  if (trading.choiceError) body = <ErrorState error={trading.choiceError} onRetry={trading.reload} />;
  else if (trading.pending) body = <Loading />;
  else if (tab === 'open') body = <OpenTab key={competitionId ?? 'own'} competition={competition} />;
  else if (tab === 'orders') body = <OrderList competition={competition} />;
  else body = <PositionList state="closed" group="all" competitionId={competitionId} />;
  return (
    <div className="positions-screen">
      <TradingAccountSwitcher account={trading} />
      <Tabs
        items={tabs}
        value={tab}
        label={LL.titles.warehouse()}
        onChange={(next) =>
          void navigate({ to: '/warehouse', search: next === 'open' ? {} : { tab: next }, replace: true })
        }
      />
      {body}
    </div>
  );
}

/**
 * The open tab: the accounts' summary above the open positions. One placeholder stands for both until both
 * have arrived, then both come in one frame as new boxes: the summary arriving on its own (or with the list)
 * would push a list already on screen down (a layout shift).
 */
function OpenTab({ competition }: { competition: Competition | null }) {
  // The same queries (and polls) as the summary's and the list's below: no request of their own.
  const listed = useListedAccounts(competition);
  const accounts = listed.competitionAccounts ?? listed.user;
  const positions = useStationQuery(
    'GET /user/position/list.do',
    positionsRead('open', competition?.id).input,
    { refetchInterval: PRICE_REFRESH_MS },
  );
  // Once the tab has shown its content it stays: a failure shows at once (the list's error, e.g. offline:
  // positions are never stored), and the list's retry of a failed first load is not the first load again.
  const [shown, setShown] = useState(false);
  const settled = (!accounts.loading && !positions.loading) || !!accounts.error || !!positions.error;
  useEffect(() => {
    if (settled) setShown(true);
  }, [settled]);
  if (!settled && !shown) return <Loading />;
  return (
    <>
      <AccountSummary competition={competition} />
      {competition && <CompetitionEquity competition={competition} />}
      <PositionList state="open" group="all" competitionId={competition?.id} />
    </>
  );
}

/**
 * A list of positions in the chosen trading account (the switcher above it): the user's own, or a
 * competition's.
 */
function TradingPositionList({ state, group }: { state: 'open' | 'closed'; group: PositionGroup }) {
  const trading = useTradingAccount();
  let body;
  if (trading.choiceError) body = <ErrorState error={trading.choiceError} onRetry={trading.reload} />;
  else if (trading.pending) body = <Loading />;
  else body = <PositionList state={state} group={group} competitionId={trading.competitionId} />;
  return (
    <>
      <TradingAccountSwitcher account={trading} />
      {body}
    </>
  );
}

/** /holdorderlist: open stock positions. */
export function HoldStocksScreen() {
  return <TradingPositionList state="open" group="stocks" />;
}
/** /holdorderlist2: open index and futures positions; with `?applyId=` a fund allocation's sub-account. */
export function HoldContractsScreen() {
  const search = useSearch({ strict: false }) as { applyId?: string };
  if (search.applyId && /^\d{1,15}$/.test(search.applyId)) {
    return <SubAccountPositions applyId={Number(search.applyId)} />;
  }
  return <TradingPositionList state="open" group="contracts" />;
}
/** /sellorderlist: closed stock positions. */
export function ClosedStocksScreen() {
  return <TradingPositionList state="closed" group="stocks" />;
}
/** /sellorderlist2: closed index and futures positions. */
export function ClosedContractsScreen() {
  return <TradingPositionList state="closed" group="contracts" />;
}

/** The account-wide liquidation price of each open position, moved by live prices between refreshes. */
function useLiveLiquidation(
  list: readonly Position[] | undefined,
  open: boolean,
  competitionId: number | undefined,
) {
  const user = useStationQuery(USER_READ.key, open ? USER_READ.input : null, {
    refetchInterval: PRICE_REFRESH_MS,
  });
  const competitionAccounts = useStationQuery(
    'GET /user/competition/accounts.do',
    open && competitionId !== undefined ? competitionAccountsRead(competitionId).input : null,
    { refetchInterval: PRICE_REFRESH_MS },
  );
  const rules = useTradingRules();
  const live = useLivePrices((list ?? []).filter((p) => open && streamCarries(p.market)).map((p) => p.code));
  if (!open || !list || !user.data || !rules.data) return null;
  const { tradingAccount, liquidationLine } = rules.data;
  if (competitionId === undefined) {
    return liveLiquidationPrices(list, user.data.accounts, tradingAccount, live, liquidationLine);
  }
  if (!competitionAccounts.data) return null;
  // A competition's accounts are one per currency: a market's positions share the one in the currency of
  // the user's own account trading that market.
  const own = user.data.accounts;
  const byCurrency = Object.fromEntries(
    Object.entries(tradingAccount).map(([market, type]) => [market, currencyOfAccount(own, type) ?? 'CNY']),
  ) as Record<Market, Currency>;
  const accounts = competitionAccounts.data.map((a) => ({ type: a.currency, available: a.available }));
  return liveLiquidationPrices<Currency>(list, accounts, byCurrency, live, liquidationLine);
}

export function PositionList({
  state,
  group,
  competitionId,
}: {
  state: 'open' | 'closed';
  group: PositionGroup;
  /** The competition whose positions these are; the user's own without one. */
  competitionId?: number | undefined;
}) {
  const { LL } = useI18nContext();
  // Open positions poll: stops, liquidations and fills happen on the station and the stream does not say.
  const positions = useStationQuery(
    'GET /user/position/list.do',
    positionsRead(state, competitionId).input,
    state === 'open' ? { refetchInterval: PRICE_REFRESH_MS } : {},
  );
  const liquidation = useLiveLiquidation(positions.data?.list, state === 'open', competitionId);
  let body;
  if (positions.loading) body = <Loading />;
  else if (!positions.data)
    body = positions.error ? <ErrorState error={positions.error} onRetry={positions.reload} /> : null;
  else {
    const list = positions.data.list.filter((p) => inGroup(p.market, group));
    body =
      list.length === 0 ? (
        <Empty text={state === 'open' ? LL.positions.empty() : LL.positions.emptyClosed()} />
      ) : (
        <ul className="position-list" data-testid={`positions-${state}`}>
          {list.map((position) => (
            <li key={position.id}>
              {state === 'open' ? (
                <OpenPositionRow
                  position={position}
                  liquidationPrice={
                    liquidation?.has(position.id) ? liquidation.get(position.id)! : position.liquidationPrice
                  }
                />
              ) : (
                <ClosedPositionRow position={position} />
              )}
            </li>
          ))}
        </ul>
      );
  }
  return (
    <PullToRefresh onRefresh={positions.reload}>
      {body}
      {positions.data && positions.error && <p className="inline-error">{positions.error.message}</p>}
    </PullToRefresh>
  );
}

/**
 * /warehouse's summary at the top: per currency, total assets, today's P&L and buying power; of the user's
 * own accounts, or of the chosen competition's.
 */
function AccountSummary({ competition }: { competition: Competition | null }) {
  const { LL } = useI18nContext();
  // The same queries (and polls) as the live liquidation prices below: one request for both.
  const listed = useListedAccounts(competition);
  // A competition's account in a currency it gave no cash in (and that holds nothing) says nothing.
  const accounts = listed.competitionAccounts
    ? listed.competitionAccounts.data?.filter(
        (a) => competition!.startingCash[a.currency] > 0 || a.totalAssets !== 0,
      )
    : listed.user.data?.accounts;
  if (!accounts) return null;
  const groups = summaryByCurrency(accounts);
  return (
    <section
      className="account-summary"
      aria-labelledby="account-summary-title"
      data-testid="account-summary"
    >
      <h2 id="account-summary-title" className="visually-hidden">
        {competition ? LL.compTrade.summaryTitle() : LL.holdings.summaryTitle()}
      </h2>
      {groups.map((group) => (
        <article key={group.currency} className="summary-card" data-testid={`summary-${group.currency}`}>
          <header>
            <strong>{group.currency}</strong>
            <span className="muted small">
              {competition
                ? LL.compTrade.accountName({ name: competition.name })
                : group.accounts
                    .map((type) => (type === 'competition' ? '' : LL.user.accountType[type]()))
                    .join(' · ')}
            </span>
          </header>
          <dl className="figures">
            <AmountFigure
              label={LL.user.totalAssets()}
              value={group.totalAssets}
              currency={group.currency}
              testId="summary-total"
            />
            <AmountFigure
              label={LL.holdings.todayPnl()}
              value={group.todayPnl}
              currency={group.currency}
              signed
              testId="summary-today"
            />
            <AmountFigure
              label={LL.holdings.buyingPower()}
              value={group.available}
              currency={group.currency}
              testId="summary-available"
            />
          </dl>
        </article>
      ))}
    </section>
  );
}
