import { useState } from 'react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { Direction } from '../../../shared/api/types';
import { formatMoney } from '../../../shared/format';
import {
  canShort,
  leverageChoices,
  orderBreakdown,
  unitsPerLot,
  type TradingRules,
} from '../../../shared/trading-rules';
import { checkLots } from '../../../shared/validation';
import { lotsMessage, validationMessage } from '../../forms/form-errors';
import { useForm } from '../../forms/use-form';
import { useStationQuery } from '../../api/station-query';
import { FormField } from '../../components/FormField';
import { moveClass, PctText } from '../../components/PriceText';
import { Empty, ErrorState, Loading } from '../../components/StatusViews';
import { priceDigits } from '../../components/market-info';
import { Choice } from './Choice';
import { checkInquiryCode, inquiryCode } from './inquiry-rules';
import { OrderBreakdownList } from './OrderBreakdownList';
import { DirectionToggle } from './order/DirectionToggle';
import { LeverageChips } from './order/LeverageChips';
import { typedLots } from './order/order-rules';
import { quantityLabel } from './order/QuantityInput';
import {
  useInstrument,
  useTradingRules,
  type InstrumentKind,
  type TradeInstrument,
} from '../../api/trading-data';
import '../../components/trade.css';

const KINDS: readonly InstrumentKind[] = ['stock', 'index', 'futures'];
const ORDER_PATH = { stock: '/buy', index: '/indexBuy', futures: '/futuresBuy' } as const;

function useInquirySearch(): { code: string; kind: InstrumentKind } {
  const search = useSearch({ strict: false }) as { code?: string; kind?: string };
  const kind = KINDS.find((k) => k === search.kind) ?? 'stock';
  return { code: typeof search.code === 'string' ? inquiryCode(search.code) : '', kind };
}

/**
 * /inquiry: a price inquiry. The user names a stock, index or futures code and a quantity, leverage and
 * direction; the screen answers with the live quote and what such an order would cost now — margin, every
 * fee, borrowed amount, liquidation price, deferred fee — with the same rules the order screens use. Nothing
 * is sent to the station but the quote requests; "Place an order" opens the order screen.
 */
export function InquiryScreen() {
  const { LL } = useI18nContext();
  const navigate = useNavigate();
  const { code, kind } = useInquirySearch();
  const [kindChoice, setKindChoice] = useState<InstrumentKind>(kind);
  const form = useForm<'code'>({
    initial: { code },
    validate: (values) => ({ code: validationMessage(LL, checkInquiryCode(values.code)) }),
  });

  // Nothing is sent to the station: the answer is the screen's search, so the inquiry can be shared.
  const onSubmit = form.handleSubmit((values) => {
    const search = { code: inquiryCode(values.code), kind: kindChoice };
    void navigate({ to: '/inquiry', search, replace: true });
  });

  return (
    <div className="wallet-screen inquiry-screen" data-testid="inquiry-screen">
      <form className="wallet-form" onSubmit={onSubmit} noValidate>
        <Choice
          label={LL.inquiry.kind()}
          testId="inquiry-kind"
          value={kindChoice}
          options={KINDS.map((k) => ({ key: k, label: LL.inquiry.kinds[k]() }))}
          onChange={setKindChoice}
        />
        <FormField
          label={LL.inquiry.code()}
          name="code"
          autoComplete="off"
          maxLength={12}
          placeholder={LL.inquiry.codePlaceholder()}
          value={form.values.code}
          error={form.errors.code}
          onChange={form.change('code')}
        />
        <button type="submit" className="button primary block" data-testid="inquiry-submit">
          {LL.inquiry.ask()}
        </button>
      </form>
      {code ? (
        <InquiryAnswer key={`${kind}|${code}`} kind={kind} code={code} />
      ) : (
        <Empty text={LL.inquiry.hint()} />
      )}
    </div>
  );
}

function InquiryAnswer({ kind, code }: { kind: InstrumentKind; code: string }) {
  const instrument = useInstrument(kind, code);
  const rules = useTradingRules();
  const user = useStationQuery('GET /user/getUserInfo.do', {});
  const failed = instrument.error ?? rules.error ?? user.error;
  if (!instrument.data || !rules.data || !user.data) {
    if (failed) {
      const retry = () => {
        instrument.reload();
        rules.reload();
        user.reload();
      };
      return <ErrorState error={failed} onRetry={retry} />;
    }
    return <Loading />;
  }
  const account = user.data.accounts.find(
    (a) => a.type === rules.data!.tradingAccount[instrument.data!.market],
  );
  return (
    <InquiryQuote
      kind={kind}
      instrument={instrument.data}
      rules={rules.data}
      available={account?.available ?? 0}
    />
  );
}

function InquiryQuote({
  kind,
  instrument,
  rules,
  available,
}: {
  kind: InstrumentKind;
  instrument: TradeInstrument;
  rules: TradingRules;
  available: number;
}) {
  const { LL, locale } = useI18nContext();
  const market = instrument.market;
  // A future offers the multiples within its margin rate (DOMAIN.md), as buyFutures.do accepts.
  const leverages = leverageChoices(rules, market, instrument.code);
  const shortAllowed = canShort(rules, market);
  const maxLots = rules.maxLots[market];
  const [leverage, setLeverage] = useState(leverages[0] ?? 1);
  const [direction, setDirection] = useState<Direction>('long');
  // The quantity is checked as it is typed: the answer below follows it.
  const form = useForm<'lots'>({
    initial: { lots: '1' },
    validate: (values) => ({ lots: lotsMessage(LL, checkLots(values.lots.trim(), maxLots), maxLots) }),
    live: ['lots'],
  });
  const digits = priceDigits(market, instrument.price, instrument.code);
  const price = (value: number) => formatMoney(value, locale, digits);
  const lots = typedLots(form.values.lots, maxLots);
  const breakdown = orderBreakdown(
    {
      market,
      code: instrument.code,
      direction,
      lots,
      unitsPerLot: unitsPerLot(rules, market, instrument.code, instrument),
      price: instrument.price,
      leverage,
      available,
    },
    rules,
  );

  return (
    <section className="inquiry-answer" data-testid="inquiry-answer">
      <header className="buy-instrument">
        <div>
          <h2>{instrument.name}</h2>
          <span className="num muted">{instrument.code}</span>
        </div>
        <div className={`num ${moveClass(instrument.change)}`}>
          <strong data-testid="inquiry-price">{price(instrument.price)}</strong>{' '}
          <PctText fraction={instrument.changePct} />
        </div>
      </header>
      {(instrument.limitUp !== null || instrument.limitDown !== null) && (
        <p className="muted small" data-testid="inquiry-limits">
          {LL.inquiry.limits({
            down: instrument.limitDown === null ? '—' : price(instrument.limitDown),
            up: instrument.limitUp === null ? '—' : price(instrument.limitUp),
          })}
        </p>
      )}
      <FormField
        label={quantityLabel(LL, kind, market)}
        name="lots"
        type="text"
        inputMode="numeric"
        maxLength={4}
        value={form.values.lots}
        error={form.errors.lots}
        onChange={form.change('lots')}
      />
      <LeverageChips
        testId="inquiry-leverage"
        leverages={leverages}
        value={leverage}
        onChange={setLeverage}
      />
      {shortAllowed && (
        <DirectionToggle testId="inquiry-direction" value={direction} onChange={setDirection} />
      )}
      {lots > 0 && (
        <OrderBreakdownList
          instrument={instrument}
          breakdown={breakdown}
          direction={direction}
          orderType="market"
          lots={lots}
          leverage={leverage}
          trigger={null}
          stopProfit={null}
          stopLoss={null}
          available={available}
          digits={digits}
        />
      )}
      <p className="muted small">{LL.inquiry.note()}</p>
      <Link
        to={ORDER_PATH[kind]}
        search={{ code: instrument.code, ...(direction === 'short' ? { direction: 'short' as const } : {}) }}
        className="button primary block"
        data-testid="inquiry-order"
      >
        {LL.inquiry.order()}
      </Link>
    </section>
  );
}
