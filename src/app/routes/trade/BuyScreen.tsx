import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useMutation } from '@tanstack/react-query';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { Account, Currency, Direction, KycStatus } from '../../../shared/api/types';
import { formatMoney } from '../../../shared/format';
import {
  canShort,
  leverageChoices,
  maxAffordableLots,
  orderBreakdown,
  quantityUnit,
  unitsPerLot,
  type TradingRules,
} from '../../../shared/trading-rules';
import { stopLossBeyondLiquidation, type RiskPosition } from '../../../shared/risk';
import { toMinor } from '../../../shared/money';
import { holdingValue, settlementRate } from '../../../shared/pnl';
import { checkLots } from '../../../shared/validation';
import { lotsMessage } from '../../forms/form-errors';
import { toApiError } from '../../api/client';
import { MONEY_CALL_STALL_MS, sendMoneyCall } from '../../api/outcome';
import { intentKey, requestIdFor } from '../../api/request-id';
import { invalidateAfter, useStationQuery } from '../../api/station-query';
import { FormField } from '../../components/FormField';
import { moveClass, PctText } from '../../components/PriceText';
import { Sheet } from '../../components/Sheet';
import { SheetButtons } from '../../components/SheetButtons';
import { ErrorState, Loading } from '../../components/StatusViews';
import { showAlert } from '../../state/alert';
import { priceDigits } from '../../components/market-info';
import { Choice } from './Choice';
import { OrderBreakdownList } from './OrderBreakdownList';
import { FundsLines, KycLine, MarketStateLine } from './OrderReadiness';
import { quantityCount } from '../../i18n/quantity';
import { checkStops, parsePrice } from './trade-rules';
import {
  useInstrument,
  useTradingRules,
  type InstrumentKind,
  type TradeInstrument,
} from '../../api/trading-data';
import { SETTING_READ, USER_READ } from '../../api/reads';
import { positionsRead } from './trade-reads';
import '../../components/trade.css';

type OrderType = 'market' | 'limit';

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
      onPlaced={user.reload}
      account={account}
      accounts={user.data.accounts}
      kycStatus={user.data.kycStatus}
      kycRequired={setting.data?.kycRequiredForOrders ?? false}
    />
  );
}

interface OrderFormProps {
  kind: InstrumentKind;
  instrument: TradeInstrument;
  rules: TradingRules;
  available: number;
  holdings: readonly RiskPosition[];
  /** How an index quoted in another currency settles in the paying account; null when it is the same. */
  settlement: { priceCurrency: Currency; accountCurrency: Currency; rate: number } | null;
  initialDirection: Direction;
  marginTrading: boolean;
  onPlaced: () => void;
  /** The paying account and all of the user's (for the one-tap transfer). */
  account: Account | undefined;
  accounts: readonly Account[];
  kycStatus: KycStatus;
  kycRequired: boolean;
}

function OrderForm({
  kind,
  instrument,
  rules,
  available,
  holdings,
  settlement,
  initialDirection,
  marginTrading,
  account,
  accounts,
  kycStatus,
  kycRequired,
}: OrderFormProps) {
  const { LL, locale } = useI18nContext();
  const navigate = useNavigate();
  const market = instrument.market;
  // A future offers the multiples within its margin rate (DOMAIN.md), as buyFutures.do accepts.
  const leverages = leverageChoices(rules, market, instrument.code);
  const maxLots = rules.maxLots[market];
  const shortAllowed = canShort(rules, market);
  const [direction, setDirection] = useState<Direction>(shortAllowed ? initialDirection : 'long');
  const [orderType, setOrderType] = useState<OrderType>('market');
  const [lotsText, setLotsText] = useState('1');
  const [leverage, setLeverage] = useState(
    (marginTrading ? leverages.find((n) => n > 1) : undefined) ?? leverages[0] ?? 1,
  );
  const [triggerText, setTriggerText] = useState('');
  const [stopProfitText, setStopProfitText] = useState('');
  const [stopLossText, setStopLossText] = useState('');
  const [touched, setTouched] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const digits = priceDigits(market, instrument.price, instrument.code);
  const payCurrency = settlement?.accountCurrency ?? instrument.currency;
  const money = (value: number) => formatMoney(value, locale);
  const price = (value: number) => formatMoney(value, locale, digits);

  const lotsKey = checkLots(lotsText.trim(), maxLots);
  const lots = lotsKey === null ? Number(lotsText) : 0;
  const trigger = parsePrice(triggerText);
  const triggerError =
    orderType !== 'limit'
      ? null
      : trigger === null
        ? LL.trading.triggerRequired()
        : (instrument.limitUp !== null && trigger > instrument.limitUp) ||
            (instrument.limitDown !== null && trigger < instrument.limitDown)
          ? LL.trading.triggerOutsideLimits({
              down: price(instrument.limitDown ?? 0),
              up: price(instrument.limitUp ?? 0),
            })
          : null;
  const fillPrice = orderType === 'limit' && trigger !== null ? trigger : instrument.price;
  const stopProfit = parsePrice(stopProfitText);
  const stopLoss = parsePrice(stopLossText);
  const stopsError = checkStops(direction, fillPrice, {
    stopProfit,
    stopLoss,
    stopProfitText,
    stopLossText,
  });
  const stopsMessage =
    stopsError === 'invalid'
      ? LL.validation.invalid()
      : stopsError === 'side'
        ? direction === 'long'
          ? LL.errors.STOPS_LONG()
          : LL.errors.STOPS_SHORT()
        : null;
  const units = unitsPerLot(rules, market, instrument.code, instrument);
  // spec §5 counts A-shares and Hong Kong stocks in lots; US stocks trade in single shares (quantityUnit).
  const inShares = quantityUnit(market) === 'shares';
  const terms = {
    market,
    code: instrument.code,
    direction,
    unitsPerLot: units,
    price: fillPrice,
    fxRate: settlement?.rate ?? 1,
    leverage,
    available,
    holdings,
  };
  const breakdown = orderBreakdown({ ...terms, lots: Math.max(lots, 0) }, rules);
  const affordable = maxAffordableLots(terms, rules, maxLots);
  const formValid = lotsKey === null && triggerError === null && stopsMessage === null;
  // DOMAIN.md: a stop loss beyond the liquidation price is accepted, with a warning naming both prices
  // (the price shown is the breakdown's, rounded as the screen shows it).
  const shownLiquidation =
    breakdown.liquidationPrice === null ? null : Number(breakdown.liquidationPrice.toFixed(digits));
  const stopLossWarning =
    stopsMessage === null && stopLossBeyondLiquidation(direction, stopLoss, shownLiquidation)
      ? LL.trading.stopLossBeyondLiquidation({
          stopLoss: price(stopLoss ?? 0),
          liquidationPrice: price(shownLiquidation ?? 0),
        })
      : null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (formValid) setConfirming(true);
  };

  return (
    <form className="buy-form" onSubmit={onSubmit} noValidate data-testid="order-form">
      <section className="buy-instrument">
        <div>
          <h2>{instrument.name}</h2>
          <span className="num muted">{instrument.code}</span>
        </div>
        <div className={`buy-price ${moveClass(instrument.change)}`}>
          <span className="label">{LL.buy.price()}</span>
          <span className="num big" data-testid="buy-price" data-value={String(instrument.price)}>
            {price(instrument.price)}
          </span>
          <PctText fraction={instrument.changePct} />
        </div>
      </section>
      {(instrument.limitUp !== null || instrument.limitDown !== null) && (
        <p className="muted small limits-line">
          {LL.detail.limitUp()} {instrument.limitUp === null ? '--' : price(instrument.limitUp)} ·{' '}
          {LL.detail.limitDown()} {instrument.limitDown === null ? '--' : price(instrument.limitDown)}
        </p>
      )}

      <MarketStateLine code={instrument.code} market={market} currency={instrument.currency} />
      <KycLine kycStatus={kycStatus} required={kycRequired} />

      {settlement && (
        <p className="muted small" data-testid="settlement-rate">
          {LL.trading.settledAt({
            priceCurrency: settlement.priceCurrency,
            accountCurrency: settlement.accountCurrency,
            rate: formatMoney(settlement.rate, locale, 4),
          })}
        </p>
      )}
      {shortAllowed && (
        <Choice
          label={LL.trading.direction()}
          testId="direction"
          value={direction}
          options={[
            { key: 'long', label: LL.trading.long() },
            { key: 'short', label: LL.trading.short() },
          ]}
          onChange={setDirection}
        />
      )}
      <Choice
        label={LL.trading.orderType()}
        testId="order-type"
        value={orderType}
        options={[
          { key: 'market', label: LL.trading.marketOrder() },
          { key: 'limit', label: LL.trading.limitOrder() },
        ]}
        onChange={setOrderType}
      />
      {orderType === 'limit' && (
        <FormField
          label={LL.trading.triggerPrice()}
          name="triggerPrice"
          inputMode="decimal"
          autoComplete="off"
          value={triggerText}
          error={touched ? triggerError : null}
          hint={LL.trading.triggerHint()}
          onChange={(e) => setTriggerText(e.target.value)}
        />
      )}

      <FormField
        label={kind !== 'stock' ? LL.trading.contracts() : inShares ? LL.buy.sharesToBuy() : LL.buy.lots()}
        name="lots"
        type="text"
        inputMode="numeric"
        autoComplete="off"
        maxLength={5}
        value={lotsText}
        error={touched ? lotsMessage(LL, lotsKey, maxLots) : null}
        hint={
          kind !== 'stock'
            ? LL.trading.contractsHint({ multiplier: units, max: maxLots })
            : inShares
              ? LL.buy.sharesHint({ max: maxLots })
              : LL.buy.lotsHint({ lotSize: units, max: maxLots })
        }
        onChange={(event) => {
          setLotsText(event.target.value);
          setTouched(true);
        }}
        addon={
          <span className="stepper">
            <button
              type="button"
              className="icon-button"
              aria-label={inShares ? LL.buy.decreaseShare() : LL.buy.decrease()}
              onClick={() => setLotsText(String(Math.max(1, (Number(lotsText) || 1) - 1)))}
            >
              −
            </button>
            <button
              type="button"
              className="icon-button"
              aria-label={inShares ? LL.buy.increaseShare() : LL.buy.increase()}
              onClick={() => setLotsText(String(Math.min(maxLots, (Number(lotsText) || 0) + 1)))}
            >
              +
            </button>
          </span>
        }
      />

      <Choice
        label={LL.buy.leverage()}
        testId="leverage"
        value={String(leverage)}
        options={leverages.map((n) => ({ key: String(n), label: LL.buy.leverageValue({ n }) }))}
        onChange={(key) => setLeverage(Number(key))}
      />
      <FundsLines
        market={market}
        account={account}
        accounts={accounts}
        leverage={leverage}
        maxLots={affordable}
        cost={breakdown.cost}
        onUseMax={(n) => {
          setLotsText(String(n));
          setTouched(true);
        }}
      />

      <div className="stops-row">
        <FormField
          label={LL.trading.stopProfit()}
          name="stopProfit"
          inputMode="decimal"
          autoComplete="off"
          placeholder={LL.trading.optional()}
          value={stopProfitText}
          onChange={(e) => setStopProfitText(e.target.value)}
        />
        <FormField
          label={LL.trading.stopLoss()}
          name="stopLoss"
          inputMode="decimal"
          autoComplete="off"
          placeholder={LL.trading.optional()}
          value={stopLossText}
          onChange={(e) => setStopLossText(e.target.value)}
        />
      </div>
      {stopsMessage && (
        <p className="field-error" data-testid="error-stops">
          {stopsMessage}
        </p>
      )}
      {stopLossWarning && (
        <p className="field-warning" role="status" data-testid="stop-loss-liquidation-warning">
          {stopLossWarning}
        </p>
      )}

      <dl className="order-summary">
        {kind === 'stock' ? (
          <div>
            <dt>{LL.buy.shares()}</dt>
            <dd className="num" data-testid="buy-shares">
              {formatMoney(breakdown.shares, locale, 0)}
            </dd>
          </div>
        ) : (
          // Indexes and futures are counted in contracts (their multiplier is in the hint), not in shares.
          <div>
            <dt>{LL.trading.contracts()}</dt>
            <dd className="num" data-testid="buy-contracts">
              {quantityCount(LL, market, Math.max(lots, 0))}
            </dd>
          </div>
        )}
        <div>
          <dt>{LL.trading.margin()}</dt>
          <dd className="num">
            {payCurrency} {money(breakdown.margin)}
          </dd>
        </div>
        <div>
          <dt>{LL.trading.available()}</dt>
          <dd className="num" data-testid="buy-available">
            {payCurrency} {money(available)}
          </dd>
        </div>
      </dl>

      <div className="action-bar">
        <button
          type="submit"
          className={`button primary block ${direction === 'short' ? 'sell' : 'buy'}`}
          data-testid="buy-confirm"
        >
          {direction === 'short' ? LL.trading.openShort() : LL.buy.confirm()}
        </button>
      </div>

      {confirming && (
        <ConfirmSheet
          kind={kind}
          instrument={instrument}
          direction={direction}
          orderType={orderType}
          lots={lots}
          leverage={leverage}
          trigger={trigger}
          stopProfit={stopProfit}
          stopLoss={stopLoss}
          breakdown={breakdown}
          available={available}
          digits={digits}
          currency={payCurrency}
          stopLossWarning={stopLossWarning}
          onClose={() => setConfirming(false)}
          onDone={(to) => {
            setConfirming(false);
            void navigate({ to: '/warehouse', search: to === 'orders' ? { tab: 'orders' } : {} });
          }}
        />
      )}
    </form>
  );
}

interface ConfirmProps {
  kind: InstrumentKind;
  instrument: TradeInstrument;
  direction: Direction;
  orderType: OrderType;
  lots: number;
  leverage: number;
  trigger: number | null;
  stopProfit: number | null;
  stopLoss: number | null;
  breakdown: ReturnType<typeof orderBreakdown>;
  available: number;
  digits: number;
  currency: Currency;
  /** The form's warning that the stop loss lies beyond the liquidation price, repeated where the user confirms. */
  stopLossWarning: string | null;
  onClose: () => void;
  onDone: (list: 'positions' | 'orders') => void;
}

const BUY_CALL = {
  stock: 'POST /user/buy.do',
  index: 'POST /user/buyIndex.do',
  futures: 'POST /user/buyFutures.do',
} as const;

/** The full breakdown before the order goes (DOMAIN.md), and the order itself, once per requestId. */
function ConfirmSheet(props: ConfirmProps) {
  const { LL } = useI18nContext();
  const { instrument, breakdown, direction, orderType } = props;
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  // A call with no answer after MONEY_CALL_STALL_MS: the user may stop waiting, and it is looked up.
  const [stalled, setStalled] = useState(false);
  const stopWaiting = useRef<AbortController | null>(null);
  // The sheet may be left while a lost answer is looked up: the outcome is then said by an alert.
  const open = useRef(true);
  useEffect(
    () => () => {
      open.current = false;
    },
    [],
  );
  const sendOrder = async () => {
    setError(null);
    const stops = {
      ...(props.stopProfit !== null ? { stopProfit: props.stopProfit } : {}),
      ...(props.stopLoss !== null ? { stopLoss: props.stopLoss } : {}),
    };
    const order = { code: instrument.code, lots: props.lots, leverage: props.leverage, ...stops };
    const limit = orderType === 'limit' && props.trigger !== null;
    const key = limit ? 'POST /user/addOrder.do' : BUY_CALL[props.kind];
    const limitOrder = {
      ...order,
      triggerPrice: props.trigger ?? 0,
      ...(direction === 'short' ? { direction } : {}),
    };
    const input = limit ? limitOrder : { ...order, direction };
    // The requestId belongs to the order (outcome.ts): the same order sent again, even from a sheet closed
    // and opened again within the window, is the same request, so it cannot go twice.
    const intent = intentKey(key, input);
    let lookedUp = false;
    stopWaiting.current = new AbortController();
    const moneyCall = {
      intent,
      signal: stopWaiting.current.signal,
      onChecking: () => {
        lookedUp = true;
        setChecking(true);
      },
    };
    const done = (list: 'positions' | 'orders') => {
      // An outcome found by asking the station says so: the user saw "checking" before.
      const text = lookedUp
        ? LL.outcome.wentThrough()
        : list === 'orders'
          ? LL.trading.orderPlaced()
          : LL.buy.success();
      showAlert(text, 'success');
      // What the order changed (positions, orders, accounts, the fund flow) is read again.
      void invalidateAfter(key);
      if (open.current) props.onDone(list);
    };
    try {
      const requestId = requestIdFor(intent);
      if (limit) {
        await sendMoneyCall('POST /user/addOrder.do', { ...limitOrder, requestId }, moneyCall);
        done('orders');
      } else {
        await sendMoneyCall(BUY_CALL[props.kind], { ...order, direction, requestId }, moneyCall);
        done('positions');
      }
    } catch (failure) {
      const apiError = toApiError(failure);
      const fieldMessage = apiError.fields ? Object.values(apiError.fields)[0] : undefined;
      const message =
        apiError.code === 'VALIDATION' && fieldMessage && apiError.message === LL.errors.VALIDATION()
          ? fieldMessage
          : apiError.message;
      if (open.current) setError(message);
      else showAlert(message);
    } finally {
      setChecking(false);
    }
  };
  // The order as a mutation: its pending state is the sheet's busy state. The outcome (including one found
  // after a lost answer, outcome.ts) is said inside, so it is said even when the sheet was left meanwhile.
  const order = useMutation({ mutationFn: sendOrder });
  const busy = order.isPending;
  const confirm = () => order.mutate();
  useEffect(() => {
    if (!busy || checking) return;
    const timer = setTimeout(() => setStalled(true), MONEY_CALL_STALL_MS);
    return () => {
      clearTimeout(timer);
      setStalled(false);
    };
  }, [busy, checking]);

  return (
    <Sheet open title={LL.trading.confirmTitle()} onClose={props.onClose} testId="order-confirm-sheet">
      <p className="sheet-text">
        {instrument.name} <span className="num muted">{instrument.code}</span>
      </p>
      <OrderBreakdownList
        instrument={instrument}
        breakdown={breakdown}
        direction={direction}
        orderType={orderType}
        lots={props.lots}
        leverage={props.leverage}
        trigger={props.trigger}
        stopProfit={props.stopProfit}
        stopLoss={props.stopLoss}
        available={props.available}
        digits={props.digits}
        currency={props.currency}
      />
      {props.stopLossWarning && (
        <p className="field-warning" role="status" data-testid="confirm-stop-loss-warning">
          {props.stopLossWarning}
        </p>
      )}
      {orderType === 'limit' && <p className="muted small">{LL.trading.limitNote()}</p>}
      {breakdown.insufficient && (
        <p className="inline-error" data-testid="bd-insufficient">
          {LL.errors.INSUFFICIENT_FUNDS()}
        </p>
      )}
      {checking && (
        <p className="muted" role="status" data-testid="outcome-checking">
          {LL.outcome.checking()}
        </p>
      )}
      {stalled && !checking && (
        <div className="button-row" role="status">
          <span className="muted">{LL.outcome.stalled()}</span>
          <button
            type="button"
            className="button secondary"
            data-testid="order-stop-waiting"
            onClick={() => stopWaiting.current?.abort()}
          >
            {LL.outcome.stopWaiting()}
          </button>
        </div>
      )}
      {error && (
        <p className="form-error" role="alert" data-testid="buy-error">
          {error}
        </p>
      )}
      <SheetButtons
        label={LL.trading.confirmOrder()}
        busy={busy}
        onConfirm={confirm}
        onCancel={props.onClose}
        testId="order-submit"
        className={direction === 'short' ? 'sell' : 'buy'}
      />
    </Sheet>
  );
}
