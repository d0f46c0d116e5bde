/**
 * The full breakdown of an order before it goes (DOMAIN.md): quantity, leverage, value, margin, every fee,
 * the cost, what is borrowed, the liquidation price, the deferred fee and what remains available. Used by
 * the order screens' confirmation and by the price inquiry.
 */
import { useI18nContext } from '../../../../locales/i18n-react';
import { quantityText } from '../../i18n/quantity';
import type { Currency, Direction } from '../../../shared/api/types';
import { formatMoney } from '../../../shared/format';
import type { FeeItem } from '../../../shared/fees';
import type { orderBreakdown } from '../../../shared/trading-rules';
import type { TradeInstrument } from '../../api/trading-data';

export interface OrderBreakdownListProps {
  instrument: TradeInstrument;
  breakdown: ReturnType<typeof orderBreakdown>;
  direction: Direction;
  orderType: 'market' | 'limit';
  lots: number;
  leverage: number;
  trigger: number | null;
  stopProfit: number | null;
  stopLoss: number | null;
  available: number;
  digits: number;
  /** The paying account's currency, where it differs from the instrument's. */
  currency?: Currency | undefined;
}

export function OrderBreakdownList({
  instrument,
  breakdown,
  direction,
  orderType,
  lots,
  leverage,
  trigger,
  stopProfit,
  stopLoss,
  available,
  digits,
  currency,
}: OrderBreakdownListProps) {
  const { LL, locale } = useI18nContext();
  // Amounts are the paying account's (an index quoted in another currency settles in it).
  const cur = currency ?? instrument.currency;
  const money = (value: number) => `${cur} ${formatMoney(value, locale)}`;
  const price = (value: number) => formatMoney(value, locale, digits);
  const minor = (value: number) => money(value / 100);
  const rows: { label: string; value: string; testId: string; strong?: boolean }[] = [
    {
      label: LL.trading.direction(),
      value: direction === 'long' ? LL.trading.long() : LL.trading.short(),
      testId: 'bd-direction',
    },
    {
      label: LL.trading.orderType(),
      value:
        orderType === 'limit' && trigger !== null
          ? `${LL.trading.limitOrder()} @ ${price(trigger)}`
          : LL.trading.marketOrder(),
      testId: 'bd-type',
    },
    {
      label: LL.trading.quantity(),
      value: quantityText(LL, instrument.market, lots, breakdown.shares),
      testId: 'bd-quantity',
    },
    { label: LL.buy.leverage(), value: LL.buy.leverageValue({ n: leverage }), testId: 'bd-leverage' },
    { label: LL.trading.value(), value: money(breakdown.value), testId: 'bd-value' },
    { label: LL.trading.margin(), value: money(breakdown.margin), testId: 'bd-margin', strong: true },
  ];
  // DOMAIN.md: the A-share commission is all-in (it includes the exchange handling fee and the regulator's
  // fee), and the breakdown says so.
  const allIn = instrument.market === 'a' || instrument.market === 'star';
  for (const [item, amount] of Object.entries(breakdown.fees) as [FeeItem, number][]) {
    const label = item === 'commission' && allIn ? LL.trading.commissionAllIn() : LL.trading.fee[item]();
    rows.push({ label, value: minor(amount), testId: `bd-fee-${item}` });
  }
  rows.push(
    { label: LL.trading.feeTotal(), value: money(breakdown.feeTotal), testId: 'bd-fees' },
    { label: LL.trading.cost(), value: money(breakdown.cost), testId: 'bd-cost', strong: true },
    { label: LL.trading.borrowed(), value: money(breakdown.borrowed), testId: 'bd-borrowed' },
    {
      label: LL.trading.liquidationPrice(),
      value: breakdown.liquidationPrice === null ? LL.trading.none() : price(breakdown.liquidationPrice),
      testId: 'bd-liquidation',
    },
  );
  if (breakdown.deferredFeePerDay > 0) {
    rows.push({
      label: LL.trading.deferredFeePerDay(),
      value: money(breakdown.deferredFeePerDay),
      testId: 'bd-deferred',
    });
  }
  if (stopProfit !== null)
    rows.push({ label: LL.trading.stopProfit(), value: price(stopProfit), testId: 'bd-stop-profit' });
  if (stopLoss !== null)
    rows.push({ label: LL.trading.stopLoss(), value: price(stopLoss), testId: 'bd-stop-loss' });
  rows.push(
    { label: LL.trading.available(), value: money(available), testId: 'bd-available' },
    {
      label: LL.trading.availableAfter(),
      value: money(breakdown.availableAfter),
      testId: 'bd-available-after',
    },
  );

  return (
    <dl className="breakdown" data-testid="order-breakdown">
      {rows.map((row) => (
        <div key={row.testId} className={row.strong ? 'strong' : undefined}>
          <dt>{row.label}</dt>
          <dd className="num" data-testid={row.testId}>
            {row.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
