import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import { quantityCount, quantityLabel } from '../../i18n/quantity';
import type { Account, Currency, Market, Order, Position } from '../../../shared/api/types';
import type { Competition } from '../../../shared/api/competitions';
import { formatDateTime, formatMoney } from '../../../shared/format';
import { toMajor, toMinor } from '../../../shared/money';
import { holdingValue, netPnl, pnlYield, pricePnlOf } from '../../../shared/pnl';
import { streamCarries, subscribeQuotes, useLiveQuote } from '../../api/live-quotes';
import { invalidateAfter, useStationMutation, useStationQuery } from '../../api/station-query';
import { PctText, PriceText } from '../../components/PriceText';
import { Sheet } from '../../components/Sheet';
import { Empty, ErrorState, Loading } from '../../components/StatusViews';
import { Tabs } from '../../components/Tabs';
import { useExchangeTime } from '../../i18n/exchange-time';
import { showAlert } from '../../state/alert';
import { PRICE_REFRESH_MS, priceDigits } from '../../components/market-info';
import { PullToRefresh } from '../../components/PullToRefresh';
import { SubAccountPositions } from './SubAccountPositions';
import { liveLiquidationPrices } from './live-liquidation';
import { summaryByCurrency } from './currency-summary';
import { useTradingRules } from '../../api/trading-data';
import { USER_READ } from '../../api/reads';
import { competitionAccountsRead, ordersRead, positionsRead } from './trade-reads';
import { currencyOfAccount } from './competition-trading';
import { CompetitionEquity } from './CompetitionEquity';
import { TradingAccountSwitcher } from './TradingAccountSwitcher';
import { useTradingAccount } from './use-trading-account';
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

/** The accounts the positions page reads: the user's own, or a competition's (accounts.do), polled. */
function useListedAccounts(competition: Competition | null) {
  const poll = { refetchInterval: PRICE_REFRESH_MS };
  const user = useStationQuery(USER_READ.key, USER_READ.input, poll);
  const inCompetition = useStationQuery(
    'GET /user/competition/accounts.do',
    competition ? competitionAccountsRead(competition.id).input : null,
    poll,
  );
  return { user, competitionAccounts: competition ? inCompetition : null };
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

/** The streamed prices of some codes, by code (a code is absent until its first tick). */
function useLivePrices(codes: readonly string[]): ReadonlyMap<string, number> {
  const [prices, setPrices] = useState<ReadonlyMap<string, number>>(new Map());
  const key = [...new Set(codes)].sort().join(',');
  useEffect(() => {
    setPrices(new Map());
    if (!key) return;
    const stops = key.split(',').map((code) =>
      subscribeQuotes(code, {
        quote: ({ quote }) =>
          setPrices((prev) => (prev.get(code) === quote.price ? prev : new Map(prev).set(code, quote.price))),
      }),
    );
    return () => stops.forEach((stop) => stop());
  }, [key]);
  return prices;
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
 * A position's P&L at a live price: the station's price P&L moved by the price change since, less the fees
 * charged so far (the shared net-P&L rule, src/shared/pnl.ts), in major units.
 */
export function livePnl(
  position: Position,
  price: number,
): { pricePnl: number; fees: number; pnl: number; yield: number } {
  const moved = pricePnlOf(
    position.direction,
    holdingValue(position.currentPrice, position.shares, position.fxRate),
    holdingValue(price, position.shares, position.fxRate),
  );
  const { pricePnl, fees, pnl } = netPnl(toMinor(position.pricePnl) + moved, {
    buyFee: toMinor(position.buyFee),
    sellFee: toMinor(position.sellFee),
    stampDuty: toMinor(position.stampDuty),
    deferredFee: toMinor(position.deferredFee),
  });
  return {
    pricePnl: toMajor(pricePnl),
    fees: toMajor(fees),
    pnl: toMajor(pnl),
    yield: pnlYield(pnl, toMinor(position.margin)),
  };
}

/**
 * Today's P&L of an open position at a live price: the station's figure (src/shared/pnl.ts todayPnl) moved
 * by the price change since it was valued, in major units.
 */
export function liveTodayPnl(position: Position, price: number): number {
  const moved = pricePnlOf(
    position.direction,
    holdingValue(position.currentPrice, position.shares, position.fxRate),
    holdingValue(price, position.shares, position.fxRate),
  );
  return toMajor(toMinor(position.todayPnl ?? 0) + moved);
}

/** The live price of an open position: the stream's once it ticks, else the list's (0 before it loads). */
export function useLivePrice(position: Position | null | undefined): number {
  const streamed = position && position.closedAt === null && streamCarries(position.market);
  const live = useLiveQuote(streamed ? position.code : undefined);
  return live ? live.price : (position?.currentPrice ?? 0);
}

/** An amount with its currency code beside it (API.md `position`: every amount is in its account's currency). */
function Amount({
  value,
  currency,
  signed = false,
  testId,
}: {
  value: number;
  currency: Currency;
  signed?: boolean;
  testId?: string;
}) {
  const { locale } = useI18nContext();
  return (
    <>
      {signed ? (
        <PriceText value={value} signed testId={testId} />
      ) : (
        <span className="num" data-testid={testId} data-value={String(value)}>
          {formatMoney(value, locale)}
        </span>
      )}{' '}
      <span className="currency" data-testid={testId ? `${testId}-currency` : undefined}>
        {currency}
      </span>
    </>
  );
}

/**
 * An open position: the whole row opens its detail (the name's link stretches over the row, trade.css),
 * with the sell button above it; today's P&L and the P&L since the open, each amount with its currency.
 */
function OpenPositionRow({
  position,
  liquidationPrice,
}: {
  position: Position;
  liquidationPrice: number | null;
}) {
  const { LL, locale } = useI18nContext();
  const exchangeTime = useExchangeTime();
  const price = useLivePrice(position);
  const { pnl, fees, yield: yieldFraction } = livePnl(position, price);
  const today = liveTodayPnl(position, price);
  const digits = priceDigits(position.market, position.openPrice, position.code);
  const fmt = (value: number) => formatMoney(value, locale, digits);
  const { currency } = position;
  const marketValue = toMajor(holdingValue(price, position.shares, position.fxRate));
  return (
    <article
      className="position-row stretched-row"
      data-testid="position-row"
      data-position-id={String(position.id)}
    >
      <header>
        <div>
          <h3>
            <Link
              to="/detail"
              search={{ id: String(position.id) }}
              className="row-link"
              data-testid="position-detail"
            >
              {position.name}
            </Link>
          </h3>
          <span className="num muted">{position.code}</span>
          <span className={`tag ${position.direction}`}>
            {position.direction === 'long' ? LL.trading.long() : LL.trading.short()} {position.leverage}×
          </span>
        </div>
        <div className="position-pnl">
          <span className="muted small">{LL.holdings.sinceOpenPnl()}</span>
          <span>
            <Amount value={pnl} currency={currency} signed testId="position-pnl" />
          </span>
          <PctText fraction={yieldFraction} />
        </div>
      </header>
      <dl className="figures">
        <div>
          <dt>{quantityLabel(LL, position.market)}</dt>
          <dd className="num" data-testid="position-lots">
            {position.lots}
          </dd>
        </div>
        <div>
          <dt>{LL.positions.openPrice()}</dt>
          <dd className="num">{fmt(position.openPrice)}</dd>
        </div>
        <div>
          <dt>{LL.positions.currentPrice()}</dt>
          <dd className="num" data-testid="position-current-price">
            {fmt(price)}
          </dd>
        </div>
        <div>
          <dt>{LL.holdings.todayPnl()}</dt>
          <dd>
            <Amount value={today} currency={currency} signed testId="position-today-pnl" />
          </dd>
        </div>
        <div>
          <dt>{LL.holdings.marketValue()}</dt>
          <dd>
            <Amount value={marketValue} currency={currency} testId="position-market-value" />
          </dd>
        </div>
        <div>
          <dt>{LL.trading.margin()}</dt>
          <dd>
            <Amount value={position.margin} currency={currency} testId="position-margin" />
          </dd>
        </div>
        <div>
          <dt>{LL.holdings.fees()}</dt>
          <dd>
            <Amount value={fees} currency={currency} testId="position-fees" />
          </dd>
        </div>
        <div>
          <dt>{LL.trading.liquidationPrice()}</dt>
          <dd className="num" data-testid="position-liquidation">
            {liquidationPrice === null ? LL.trading.none() : fmt(liquidationPrice)}
          </dd>
        </div>
        <div>
          <dt>{LL.trading.stops()}</dt>
          <dd className="num">
            {position.stopProfit === null ? '--' : fmt(position.stopProfit)} /{' '}
            {position.stopLoss === null ? '--' : fmt(position.stopLoss)}
          </dd>
        </div>
      </dl>
      <footer>
        {position.sellableFrom > Date.now() && (
          <span className="muted small">
            {LL.positions.sellableFrom({
              time: exchangeTime(position.sellableFrom, position.market),
            })}
          </span>
        )}
        <Link
          to="/sellStocks"
          search={{ id: String(position.id) }}
          className="button small sell above-row-link"
          data-testid="sell-button"
        >
          {LL.trading.close()}
        </Link>
      </footer>
    </article>
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
            <div>
              <dt>{LL.user.totalAssets()}</dt>
              <dd>
                <Amount value={group.totalAssets} currency={group.currency} testId="summary-total" />
              </dd>
            </div>
            <div>
              <dt>{LL.holdings.todayPnl()}</dt>
              <dd>
                <Amount value={group.todayPnl} currency={group.currency} signed testId="summary-today" />
              </dd>
            </div>
            <div>
              <dt>{LL.holdings.buyingPower()}</dt>
              <dd>
                <Amount value={group.available} currency={group.currency} testId="summary-available" />
              </dd>
            </div>
          </dl>
        </article>
      ))}
    </section>
  );
}

function ClosedPositionRow({ position }: { position: Position }) {
  const { LL, locale } = useI18nContext();
  const digits = priceDigits(position.market, position.openPrice, position.code);
  const fmt = (value: number) => formatMoney(value, locale, digits);
  const reason = position.closeReason;
  return (
    <Link
      to="/detail"
      search={{ id: String(position.id) }}
      className="position-row plain-link"
      data-testid="position-row"
      data-position-id={String(position.id)}
    >
      <header>
        <div>
          <h3>{position.name}</h3>
          <span className="num muted">{position.code}</span>
          {reason && (
            <span className="tag" data-testid="close-reason">
              {LL.positions.closeReason[reason]()}
            </span>
          )}
        </div>
        <div className="position-pnl">
          <PriceText value={position.pnl} signed testId="position-pnl" />
          <PctText fraction={position.yield} />
        </div>
      </header>
      <dl className="figures">
        <div>
          <dt>{quantityLabel(LL, position.market)}</dt>
          <dd className="num">{position.lots}</dd>
        </div>
        <div>
          <dt>{LL.positions.openPrice()}</dt>
          <dd className="num">{fmt(position.openPrice)}</dd>
        </div>
        <div>
          <dt>{LL.positions.closePrice()}</dt>
          <dd className="num" data-testid="position-close-price">
            {position.closePrice === null ? '--' : fmt(position.closePrice)}
          </dd>
        </div>
        <div className="wide">
          <dt>{LL.positions.closedAt()}</dt>
          <dd className="num">{position.closedAt === null ? '--' : formatDateTime(position.closedAt)}</dd>
        </div>
      </dl>
    </Link>
  );
}

function OrderList({ competition }: { competition: Competition | null }) {
  const { LL } = useI18nContext();
  // Polled: an order fills or expires on the station, and the stream does not say.
  const read = ordersRead(competition?.id);
  const orders = useStationQuery(read.key, read.input, { refetchInterval: PRICE_REFRESH_MS });
  const statuses = orders.data?.list.map((order) => `${order.id}:${order.status}`).join(',');
  const seenStatuses = useRef(statuses);
  useEffect(() => {
    if (statuses === undefined || statuses === seenStatuses.current) return;
    // An order that ended on the station (filled, expired) released or spent what it froze.
    if (seenStatuses.current !== undefined) void invalidateAfter('POST /user/order/cancel.do');
    seenStatuses.current = statuses;
  }, [statuses]);
  const [revoking, setRevoking] = useState<Order | null>(null);
  let body;
  if (orders.loading) body = <Loading />;
  else if (!orders.data)
    body = orders.error ? <ErrorState error={orders.error} onRetry={orders.reload} /> : null;
  else if (orders.data.list.length === 0) body = <Empty text={LL.trading.noOrders()} />;
  else
    body = (
      <>
        <OrderFunds orders={orders.data.list} competition={competition} />
        <ul className="position-list" data-testid="orders-list">
          {orders.data.list.map((order) => (
            <li key={order.id}>
              <OrderRow
                order={order}
                onRevoke={order.status === 'pending' ? () => setRevoking(order) : undefined}
              />
            </li>
          ))}
        </ul>
      </>
    );
  return (
    <PullToRefresh onRefresh={orders.reload}>
      {body}
      {revoking && (
        <RevokeSheet order={revoking} onClose={() => setRevoking(null)} onDone={() => setRevoking(null)} />
      )}
    </PullToRefresh>
  );
}

function OrderRow({ order, onRevoke }: { order: Order; onRevoke?: () => void }) {
  const { LL, locale } = useI18nContext();
  const exchangeTime = useExchangeTime();
  const fmt = (value: number) =>
    formatMoney(value, locale, priceDigits(order.market, order.triggerPrice, order.code));
  return (
    <article className="position-row" data-testid="order-row" data-order-id={String(order.id)}>
      <header>
        <div>
          <h3>{order.name}</h3>
          <span className="num muted">{order.code}</span>
          <span className={`tag ${order.direction}`}>
            {order.direction === 'long' ? LL.trading.long() : LL.trading.short()} {order.leverage}×
          </span>
        </div>
        <span className={`status-tag order-${order.status}`} data-testid="order-status">
          {LL.trading.orderStatus[order.status]()}
        </span>
      </header>
      <dl className="figures">
        <div>
          <dt>{LL.trading.triggerPrice()}</dt>
          <dd className="num">{fmt(order.triggerPrice)}</dd>
        </div>
        {order.fillPrice !== null && (
          <div>
            <dt>{LL.trading.fillPrice()}</dt>
            <dd className="num" data-testid="order-fill-price">
              {fmt(order.fillPrice)}
            </dd>
          </div>
        )}
        <div>
          <dt>{quantityLabel(LL, order.market)}</dt>
          <dd className="num">{order.lots}</dd>
        </div>
        {/* Only a pending order holds funds: a revoked, filled or rejected one released them (limit-orders.ts). */}
        {order.status === 'pending' && (
          <div>
            <dt>{LL.trading.frozen()}</dt>
            <dd className="num" data-testid="order-frozen">
              {formatMoney(order.frozen, locale)}
            </dd>
          </div>
        )}
        <div className="wide">
          <dt>{LL.trading.placedAt()}</dt>
          <dd className="num">{exchangeTime(order.createdAt, order.market)}</dd>
        </div>
        {order.status === 'pending' && order.expiresAt !== null && (
          <div className="wide">
            <dt>{LL.trading.expiresAt()}</dt>
            <dd className="num" data-testid="order-expires-at">
              {exchangeTime(order.expiresAt, order.market)}
            </dd>
          </div>
        )}
      </dl>
      {order.rejectReason === 'EXPIRED' && <p className="muted small">{LL.trading.orderExpired()}</p>}
      {order.rejectReason === 'INSUFFICIENT_FUNDS' && (
        <p className="muted small">{LL.errors.INSUFFICIENT_FUNDS()}</p>
      )}
      {onRevoke && (
        <footer>
          <button
            type="button"
            className="button small secondary"
            data-testid="revoke-button"
            onClick={onRevoke}
          >
            {LL.trading.revoke()}
          </button>
        </footer>
      )}
    </article>
  );
}

function RevokeSheet({ order, onClose, onDone }: { order: Order; onClose: () => void; onDone: () => void }) {
  const { LL } = useI18nContext();
  // The orders and the accounts it released funds to refresh by the mutation's invalidation.
  const revoke = useStationMutation('POST /user/order/cancel.do', {
    onSuccess: () => {
      showAlert(LL.trading.revoked(), 'success');
      onDone();
    },
  });
  const busy = revoke.isPending;
  const error = revoke.error?.message ?? null;
  const confirm = () => revoke.mutate({ orderId: order.id });
  return (
    <Sheet open title={LL.trading.revokeTitle()} onClose={onClose} testId="revoke-sheet">
      <p className="sheet-text">
        {LL.trading.revokeText({
          name: order.name,
          code: order.code,
          quantity: quantityCount(LL, order.market, order.lots),
        })}
      </p>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="button-row">
        <button type="button" className="button secondary" onClick={onClose}>
          {LL.common.cancel()}
        </button>
        <button
          type="button"
          className="button primary"
          data-testid="revoke-confirm"
          disabled={busy}
          onClick={confirm}
        >
          {busy ? LL.common.submitting() : LL.trading.revoke()}
        </button>
      </div>
    </Sheet>
  );
}

/**
 * The funds the listed orders hold, per account that pays for them (tradingAccount): what pending limit
 * orders froze (balance − available, server/ledger/views.ts) and the cash still available. Not polled:
 * placing, revoking or the end of an order invalidates it (query-keys.ts INVALIDATES).
 */
function OrderFunds({ orders, competition }: { orders: readonly Order[]; competition: Competition | null }) {
  const { LL, locale } = useI18nContext();
  const { user, competitionAccounts } = useListedAccounts(competition);
  const rules = useTradingRules();
  if (!user.data || !rules.data || (competitionAccounts && !competitionAccounts.data)) return null;
  const { tradingAccount } = rules.data;
  const types = new Set(orders.map((order) => tradingAccount[order.market]));
  const own = user.data.accounts;
  // A competition's accounts are one per currency: those in the currencies of the accounts named.
  const currencies = new Set([...types].map((type) => currencyOfAccount(own, type)));
  const shown = competitionAccounts?.data
    ? competitionAccounts.data
        .filter((a) => currencies.has(a.currency))
        .map((a) => ({
          ...a,
          key: a.currency,
          name: `${LL.compTrade.accountName({ name: competition!.name })} ${a.currency}`,
        }))
    : own
        .filter((account) => types.has(account.type))
        .map((a) => ({ ...a, key: a.type, name: LL.user.accountType[a.type]() }));
  return (
    <dl className="figures order-funds" data-testid="order-funds">
      {shown.map((account) => (
        <div key={account.key} className="wide" data-testid={`order-funds-${account.key}`}>
          <dt>
            {account.name} · {LL.trading.frozen()} / {LL.user.available()}
          </dt>
          <dd className="num">
            <span data-testid="order-funds-frozen" data-value={String(frozenByOrders(account))}>
              {formatMoney(frozenByOrders(account), locale)}
            </span>
            {' / '}
            <span data-testid="order-funds-available" data-value={String(account.available)}>
              {formatMoney(account.available, locale)}
            </span>
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** What pending limit orders hold in an account (API.md `account`: available = balance − frozen). */
function frozenByOrders(account: Pick<Account, 'balance' | 'available'>): number {
  return Math.round((account.balance - account.available) * 100) / 100;
}
