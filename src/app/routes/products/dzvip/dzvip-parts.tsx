/**
 * What the block-trade and VIP screens share: the market-time window, the status tag, and the purchase
 * form with its breakdown before confirming (the same fee rules the station charges with).
 */
import { useState, type ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { formatMoney } from '../../../../shared/format';
import { useI18nContext } from '../../../../../locales/i18n-react';
import type { BlockTradeOfferStatus, VipPickStatus } from '../../../../shared/api/dzvip';
import type { Market, Position } from '../../../../shared/api/types';
import { orderBreakdown } from '../../../../shared/trading-rules';
import { checkLots } from '../../../../shared/validation';
import { refreshUser } from '../../../api/account';
import type { ApiError } from '../../../api/errors';
import { FormField } from '../../../components/FormField';
import { ErrorState, Loading } from '../../../components/StatusViews';
import { useFreshUser, useMoneyText, InfoRow } from '../../../components/record-parts';
import { lotsMessage } from '../../../forms/form-errors';
import { useForm } from '../../../forms/use-form';
import { FormSubmit } from '../../../components/FormSubmit';
import { useTradingRules } from '../../../api/trading-data';

/** Offers and allocations keep Shanghai market time, whatever the phone's zone. */
const MARKET_TIME = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Asia/Shanghai',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** "09:30–15:00" in market time. */
export function windowText(opensAt: number, closesAt: number): string {
  return `${MARKET_TIME.format(new Date(opensAt))}–${MARKET_TIME.format(new Date(closesAt))}`;
}

/** An offer's or allocation's status in words. */
export function StatusText({ status }: { status: BlockTradeOfferStatus | VipPickStatus }) {
  const { LL } = useI18nContext();
  return {
    upcoming: LL.dzvip.statusUpcoming(),
    open: LL.dzvip.statusOpen(),
    closed: LL.dzvip.statusClosed(),
    soldOut: LL.dzvip.statusSoldOut(),
  }[status];
}

export function StatusTag({ status }: { status: BlockTradeOfferStatus | VipPickStatus }) {
  const text = <StatusText status={status} />;
  const tone = status === 'open' ? 'status-success' : status === 'upcoming' ? 'status-pending' : '';
  return (
    <span className={`status-tag ${tone}`} data-testid="status">
      {text}
    </span>
  );
}

/** A small label–value grid of a card. */
export function Figures({ items }: { items: readonly (readonly [string, ReactNode])[] }) {
  return (
    <dl className="dzvip-figures">
      {items.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export interface PurchaseTerms {
  code: string;
  name: string;
  market: Market;
  /** Price per share of this purchase. */
  price: number;
  minLots: number;
  maxLots: number;
  lotSize: number;
  /** The leverages offered; [1] when paid in full. */
  leverages: readonly number[];
}

/** The purchase as a station mutation (useStationMutation of the screen's buy call), with the code bound. */
export interface PurchaseMutation {
  mutate: (
    input: { lots: number; leverage: number },
    callbacks: {
      onSuccess: (answer: { position: Position }) => void;
      onError: (error: ApiError) => void;
    },
  ) => void;
  isPending: boolean;
}

export interface PurchaseFormProps {
  terms: PurchaseTerms;
  /** Sends the purchase; answers the position it opened. */
  purchase: PurchaseMutation;
  /** The message after a purchase. */
  doneText: (lots: number) => string;
  confirmText: string;
}

/** Lots (and leverage where offered), the breakdown before confirming, then the purchase. */
/** The lists a purchase changes refresh by its invalidation (query-keys.ts). */
export function PurchaseForm({ terms, purchase, doneText, confirmText }: PurchaseFormProps) {
  const { LL, locale } = useI18nContext();
  const money = useMoneyText();
  const rules = useTradingRules();
  const { user, error: userError, reload } = useFreshUser();
  const [leverage, setLeverage] = useState(terms.leverages[0] ?? 1);
  const form = useForm<'lots'>({
    initial: { lots: String(terms.minLots) },
    // The block's own floor after the shared lots rule (the station refuses below it with the same message).
    validate: ({ lots }) => ({
      lots:
        lotsMessage(LL, checkLots(lots.trim(), terms.maxLots), terms.maxLots) ??
        (Number(lots) < terms.minLots ? LL.errors.DZ_BELOW_MIN_LOTS({ min: terms.minLots }) : null),
    }),
    sending: purchase.isPending,
  });
  const lots = form.values.lots;
  const [done, setDone] = useState<{ text: string; position: Position } | null>(null);

  const failed = rules.error ?? userError;
  if (!rules.data || !user) {
    return failed ? (
      <ErrorState
        error={failed}
        onRetry={() => {
          rules.reload();
          reload();
        }}
      />
    ) : (
      <Loading />
    );
  }
  const account = user.accounts.find((a) => a.type === rules.data!.tradingAccount[terms.market]);
  const lotsNumber = Number(lots);
  const lotsKey = checkLots(lots.trim(), terms.maxLots);
  const breakdown =
    lotsKey === null
      ? orderBreakdown(
          {
            market: terms.market,
            direction: 'long',
            lots: lotsNumber,
            unitsPerLot: terms.lotSize,
            leverage,
            price: terms.price,
            available: account?.available ?? 0,
          },
          rules.data,
        )
      : null;

  const onSubmit = form.handleSubmit(() =>
    purchase.mutate(
      { lots: lotsNumber, leverage },
      {
        onSuccess: (answer) =>
          void refreshUser()
            .catch(() => undefined)
            .then(() => {
              setDone({ text: doneText(lotsNumber), position: answer.position });
            }),
        onError: form.showRefusal,
      },
    ),
  );

  if (done) {
    return (
      <div className="dzvip-form" data-testid="purchase-done">
        <p className="dzvip-note" role="status">
          {done.text}
        </p>
        <Link
          to="/detail"
          search={{ id: String(done.position.id) }}
          className="button primary block"
          data-testid="view-position"
        >
          {LL.dzvip.viewPosition()}
        </Link>
      </div>
    );
  }

  return (
    <form className="dzvip-form" onSubmit={onSubmit} noValidate data-testid="purchase-form">
      <FormField
        label={LL.dzvip.lots()}
        name="lots"
        inputMode="numeric"
        autoComplete="off"
        value={lots}
        error={form.errors.lots}
        hint={LL.dzvip.lotsHint({ min: terms.minLots, max: terms.maxLots, size: terms.lotSize })}
        onChange={(event) => form.setValue('lots', event.target.value.replace(/[^\d]/g, ''))}
      />
      {terms.leverages.length > 1 && (
        <div className="choice-field">
          <span className="choice-label">{LL.dzvip.leverage()}</span>
          <div className="chips" role="radiogroup" aria-label={LL.dzvip.leverage()}>
            {terms.leverages.map((option) => (
              <button
                key={option}
                type="button"
                role="radio"
                aria-checked={option === leverage}
                className={option === leverage ? 'chip selected' : 'chip'}
                onClick={() => setLeverage(option)}
              >
                ×{option}
              </button>
            ))}
          </div>
        </div>
      )}
      {breakdown && (
        <div className="summary-card" data-testid="purchase-breakdown">
          <InfoRow label={LL.dzvip.offerPrice()}>{formatMoney(terms.price, locale)}</InfoRow>
          <InfoRow label={LL.dzvip.amount()}>{money(breakdown.value, 'CNY')}</InfoRow>
          <InfoRow label={LL.dzvip.fee()}>{money(breakdown.feeTotal, 'CNY')}</InfoRow>
          <InfoRow label={LL.dzvip.total()} testId="purchase-total">
            {money(breakdown.cost, 'CNY')}
          </InfoRow>
          {account && <InfoRow label={LL.user.available()}>{money(account.available, 'CNY')}</InfoRow>}
        </div>
      )}
      <p className="dzvip-note">{LL.dzvip.tPlusOne()}</p>
      <FormSubmit formError={form.formError} busy={form.busy} label={confirmText} testId="purchase-submit" />
    </form>
  );
}
