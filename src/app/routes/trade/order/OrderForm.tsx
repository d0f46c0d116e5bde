import { useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useI18nContext } from '../../../../../locales/i18n-react';
import type { Account, Currency, Direction, KycStatus } from '../../../../shared/api/types';
import type { Competition, CompetitionAccount } from '../../../../shared/api/competitions';
import { formatMoney } from '../../../../shared/format';
import type { RiskPosition } from '../../../../shared/risk';
import { unitsPerLot, type TradingRules } from '../../../../shared/trading-rules';
import { toApiError } from '../../../api/client';
import type { InstrumentKind, TradeInstrument } from '../../../api/trading-data';
import { priceDigits } from '../../../components/market-info';
import { useForm } from '../../../forms/use-form';
import { FundsLines, KycLine, MarketStateLine } from '../OrderReadiness';
import { limitsOf } from '../competition-trading';
import { CompetitionMarketLine } from './CompetitionMarketLine';
import { parsePrice } from '../trade-rules';
import { DirectionToggle } from './DirectionToggle';
import { LeverageChips } from './LeverageChips';
import { OrderConfirmSheet } from './OrderConfirmSheet';
import { OrderInstrument, SettlementLine } from './OrderInstrument';
import { orderMessages, type OrderMessageSlot } from './order-messages';
import {
  marketOffered,
  maxLotsPerOrder,
  offeredLeverages,
  orderFigures,
  orderProblems,
  orderRequest,
  shortOffered,
  type OrderField,
  type OrderType,
} from './order-rules';
import { OrderSummary } from './OrderSummary';
import { PriceInput } from './PriceInput';
import { QuantityInput } from './QuantityInput';
import { StopsInputs } from './StopsInputs';

export interface OrderFormProps {
  kind: InstrumentKind;
  instrument: TradeInstrument;
  rules: TradingRules;
  available: number;
  holdings: readonly RiskPosition[];
  /** How an index quoted in another currency settles in the paying account; null when it is the same. */
  settlement: { priceCurrency: Currency; accountCurrency: Currency; rate: number } | null;
  initialDirection: Direction;
  /** /twoBuy (margin trading): the first leverage above 1 is chosen to start with. */
  marginTrading: boolean;
  /** The paying account and all of the user's (for the one-tap transfer; none inside a competition). */
  account: Account | CompetitionAccount | undefined;
  accounts: readonly Account[];
  /** The competition whose accounts pay, under its limits; null for the user's own accounts. */
  competition: Competition | null;
  kycStatus: KycStatus;
  kycRequired: boolean;
}

/** The station may name these in a refusal: its message then goes under the field, the sheet steps aside. */
const STATION_FIELDS: readonly (OrderField | OrderMessageSlot)[] = [
  'lots',
  'triggerPrice',
  'stopProfit',
  'stopLoss',
  'leverage',
];
/** Checked as the user types or chooses, as soon as the form has been touched. */
const LIVE: readonly OrderMessageSlot[] = ['lots', 'triggerPrice', 'stops', 'leverage'];

/** An order: its parts checked by the order rules, reviewed in the confirmation sheet, sent from there. */
export function OrderForm(props: OrderFormProps) {
  const { kind, instrument, rules, settlement, available } = props;
  const { LL, locale } = useI18nContext();
  const navigate = useNavigate();
  const market = instrument.market;
  const { competition } = props;
  const limits = competition ? limitsOf(competition) : null;
  // A future offers the multiples within its margin rate (DOMAIN.md), as buyFutures.do accepts; a
  // competition none above its largest, and shorts only if it allows them.
  const leverages = offeredLeverages(rules, instrument, limits);
  const shortAllowed = shortOffered(rules, market, limits);
  const allowedHere = marketOffered(market, limits);
  const [direction, setDirection] = useState<Direction>(shortAllowed ? props.initialDirection : 'long');
  const [orderType, setOrderType] = useState<OrderType>('market');
  const [leverage, setLeverage] = useState(
    (props.marginTrading ? leverages.find((n) => n > 1) : undefined) ?? leverages[0] ?? 1,
  );
  const [reviewing, setReviewing] = useState(false);
  const digits = priceDigits(market, instrument.price, instrument.code);
  const formatPrice = (value: number) => formatMoney(value, locale, digits);
  const payCurrency = settlement?.accountCurrency ?? instrument.currency;
  const context = { instrument, rules, limits };
  const choices = { direction, orderType, leverage };
  const maxLots = maxLotsPerOrder(context);

  const form = useForm<OrderField, OrderField | OrderMessageSlot>({
    initial: { lots: '1', triggerPrice: '', stopProfit: '', stopLoss: '' },
    validate: (values) =>
      orderMessages(LL, orderProblems(values, choices, context), {
        direction,
        maxLots,
        limitUp: instrument.limitUp,
        limitDown: instrument.limitDown,
        formatPrice,
      }),
    stationFields: STATION_FIELDS,
    live: LIVE,
  });
  const { values, errors, change } = form;
  const figures = orderFigures(
    values,
    choices,
    context,
    { available, holdings: props.holdings, fxRate: settlement?.rate ?? 1 },
    digits,
  );
  const { breakdown } = figures;
  const trigger = parsePrice(values.triggerPrice);
  const stopProfit = parsePrice(values.stopProfit);
  const stopLoss = parsePrice(values.stopLoss);
  // DOMAIN.md: a stop loss beyond the liquidation price is accepted, with a warning naming both prices.
  const stopLossWarning =
    figures.stopLossBeyond === null
      ? null
      : LL.trading.stopLossBeyondLiquidation({
          stopLoss: formatPrice(stopLoss ?? 0),
          liquidationPrice: formatPrice(figures.stopLossBeyond),
        });

  const showRefusal = (error: unknown) => {
    // A refusal with its own message (STOPS_LONG, LEVERAGE_ABOVE_MARGIN_RATE, SHORT_NOT_ALLOWED…) says more
    // than the "invalid" of its fields: the sheet shows it. A plain one goes under its fields.
    const { message } = toApiError(error);
    if (message !== LL.errors.VALIDATION()) form.setFormError(message);
    else if (form.showRefusal(error)) setReviewing(false);
  };

  return (
    <form
      className="buy-form"
      onSubmit={form.handleSubmit(() => setReviewing(true))}
      noValidate
      data-testid="order-form"
    >
      <OrderInstrument instrument={instrument} formatPrice={formatPrice} />
      <MarketStateLine code={instrument.code} market={market} currency={instrument.currency} />
      <KycLine kycStatus={props.kycStatus} required={props.kycRequired} />
      {competition && !allowedHere && <CompetitionMarketLine competition={competition} />}
      {settlement && <SettlementLine settlement={settlement} />}
      {shortAllowed && <DirectionToggle testId="direction" value={direction} onChange={setDirection} />}
      <PriceInput
        orderType={orderType}
        onOrderType={setOrderType}
        trigger={values.triggerPrice}
        onTrigger={change('triggerPrice')}
        error={errors.triggerPrice}
      />
      <QuantityInput
        kind={kind}
        market={market}
        unitsPerLot={unitsPerLot(rules, market, instrument.code, instrument)}
        maxLots={maxLots}
        value={values.lots}
        error={errors.lots}
        onChange={change('lots')}
        onStep={(lots) => form.setValue('lots', lots)}
      />
      <LeverageChips
        testId="leverage"
        leverages={leverages}
        value={leverage}
        onChange={(chosen) => {
          setLeverage(chosen);
          form.setError('leverage', undefined);
        }}
        error={errors.leverage}
      />
      <FundsLines
        market={market}
        account={props.account}
        accounts={props.accounts}
        accountName={competition ? LL.compTrade.accountName({ name: competition.name }) : undefined}
        leverage={leverage}
        maxLots={figures.affordableLots}
        cost={breakdown.cost}
        onUseMax={(lots) => form.setValue('lots', String(lots))}
      />
      <StopsInputs
        stopProfit={values.stopProfit}
        stopLoss={values.stopLoss}
        onStopProfit={change('stopProfit')}
        onStopLoss={change('stopLoss')}
        errors={errors}
        warning={stopLossWarning}
      />
      <OrderSummary
        kind={kind}
        market={market}
        lots={figures.lots}
        breakdown={breakdown}
        available={available}
        currency={payCurrency}
      />

      <div className="action-bar">
        <button
          type="submit"
          className={`button primary block ${direction === 'short' ? 'sell' : 'buy'}`}
          data-testid="buy-confirm"
          disabled={!allowedHere}
        >
          {direction === 'short' ? LL.trading.openShort() : LL.buy.confirm()}
        </button>
      </div>

      {reviewing && (
        <OrderConfirmSheet
          order={{
            instrument,
            breakdown,
            ...choices,
            lots: figures.lots,
            trigger,
            stopProfit,
            stopLoss,
            available,
            digits,
            currency: payCurrency,
          }}
          stopLossWarning={stopLossWarning}
          request={orderRequest(kind, {
            ...choices,
            code: instrument.code,
            lots: figures.lots,
            trigger,
            stopProfit,
            stopLoss,
            competitionId: competition?.id,
          })}
          refusal={form.formError}
          onSend={() => form.setFormError(null)}
          onRefused={showRefusal}
          onClose={() => setReviewing(false)}
          onPlaced={(list) => {
            setReviewing(false);
            void navigate({ to: '/warehouse', search: list === 'orders' ? { tab: 'orders' } : {} });
          }}
        />
      )}
    </form>
  );
}
