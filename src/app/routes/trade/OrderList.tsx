/** /warehouse's limit-order tab: pending orders with what they hold, revoking one, and the others' outcome. */
import { useEffect, useRef, useState } from 'react';
import { useI18nContext } from '../../../../locales/i18n-react';
import { quantityCount, quantityLabel } from '../../i18n/quantity';
import type { Account, Order } from '../../../shared/api/types';
import type { Competition } from '../../../shared/api/competitions';
import { formatMoney } from '../../../shared/format';
import { invalidateAfter, useStationMutation, useStationQuery } from '../../api/station-query';
import { Sheet } from '../../components/Sheet';
import { Empty, ErrorState, Loading } from '../../components/StatusViews';
import { useExchangeTime } from '../../i18n/exchange-time';
import { showAlert } from '../../state/alert';
import { PRICE_REFRESH_MS, priceDigits } from '../../components/market-info';
import { PullToRefresh } from '../../components/PullToRefresh';
import { useTradingRules } from '../../api/trading-data';
import { ordersRead } from './trade-reads';
import { currencyOfAccount } from './competition-trading';
import { useListedAccounts } from './listed-accounts';
import { SheetButtons } from '../../components/SheetButtons';
import '../../components/trade.css';

export function OrderList({ competition }: { competition: Competition | null }) {
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
      <SheetButtons
        label={LL.trading.revoke()}
        busy={busy}
        onConfirm={confirm}
        onCancel={onClose}
        testId="revoke-confirm"
      />
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
