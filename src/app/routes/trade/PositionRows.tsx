/** A position's row in /warehouse's lists: open (live P&L, stops, sell) and closed (what it made). */
import { Link } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import { quantityLabel } from '../../i18n/quantity';
import type { Currency, Position } from '../../../shared/api/types';
import { formatDateTime, formatMoney } from '../../../shared/format';
import { toMajor } from '../../../shared/money';
import { holdingValue } from '../../../shared/pnl';
import { PctText, PriceText } from '../../components/PriceText';
import { useExchangeTime } from '../../i18n/exchange-time';
import { priceDigits } from '../../components/market-info';
import { livePnl, liveTodayPnl, useLivePrice } from './live-position';
import '../../components/trade.css';

/** An amount with its currency code beside it (API.md `position`: every amount is in its account's currency). */
export function Amount({
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

/** One figure of a `dl.figures` list that is an amount with its currency. */
export function AmountFigure({
  label,
  ...amount
}: {
  label: string;
  value: number;
  currency: Currency;
  signed?: boolean;
  testId: string;
}) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>
        <Amount {...amount} />
      </dd>
    </div>
  );
}

/**
 * An open position: the whole row opens its detail (the name's link stretches over the row, trade.css),
 * with the sell button above it; today's P&L and the P&L since the open, each amount with its currency.
 */
export function OpenPositionRow({
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
        <AmountFigure
          label={LL.holdings.todayPnl()}
          value={today}
          currency={currency}
          signed
          testId="position-today-pnl"
        />
        <AmountFigure
          label={LL.holdings.marketValue()}
          value={marketValue}
          currency={currency}
          testId="position-market-value"
        />
        <AmountFigure
          label={LL.trading.margin()}
          value={position.margin}
          currency={currency}
          testId="position-margin"
        />
        <AmountFigure label={LL.holdings.fees()} value={fees} currency={currency} testId="position-fees" />
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

export function ClosedPositionRow({ position }: { position: Position }) {
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
