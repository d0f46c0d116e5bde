/**
 * The split account of a fund allocation: /subWarehouseBuy (a market buy of an A-share or STAR stock in the
 * sub-account, `?applyId=&code=`). Its positions are the trade area's (/holdorderlist2 with `?applyId=`).
 */
import { useState } from 'react';
import { Link, useSearch } from '@tanstack/react-router';
import { useI18nContext } from '../../../../../locales/i18n-react';
import { orderBreakdown, unitsPerLot } from '../../../../shared/trading-rules';
import { checkLots } from '../../../../shared/validation';
import { useStationMutation, useStationQuery } from '../../../api/station-query';
import { FormField } from '../../../components/FormField';
import { PriceText } from '../../../components/PriceText';
import { Empty, ErrorState, Loading } from '../../../components/StatusViews';
import { showAlert } from '../../../state/alert';
import { lotsMessage } from '../../../forms/form-errors';
import { useForm } from '../../../forms/use-form';
import { ConfirmSheet } from '../../../components/ConfirmSheet';
import { quantityCount } from '../../../i18n/quantity';
import { useInstrument, useTradingRules } from '../../../api/trading-data';
import { InfoRow, useMoneyText } from '../../../components/record-parts';
import '../../../components/wallet.css';
import '../../../components/funds.css';

const idOf = (raw: string | undefined) => (raw && /^\d{1,15}$/.test(raw) ? Number(raw) : undefined);

/** /subWarehouseBuy: the allocation of `?applyId=`, or the current one. */
export function SubAccountBuyScreen() {
  const { LL } = useI18nContext();
  const search = useSearch({ strict: false }) as { applyId?: string; code?: string };
  const applyId = idOf(search.applyId);
  const sub = useStationQuery('GET /user/funds/getUserSubaccount.do', applyId ? { applyId } : {});
  if (sub.error && !sub.data) return <ErrorState error={sub.error} onRetry={sub.reload} />;
  if (sub.data === undefined) return <Loading />;
  if (sub.data === null || sub.data.allocation.status !== 'trading') {
    return (
      <div className="funds-screen wallet-screen">
        <Empty text={LL.fundsUi.noTrading()} />
        <Link to="/funds" className="button primary block">
          {LL.fundsUi.apply()}
        </Link>
      </div>
    );
  }
  return (
    <SubAccountBuyForm
      applyId={sub.data.allocation.id}
      cash={sub.data.cash}
      initialCode={search.code ?? ''}
      onDone={sub.reload}
    />
  );
}

function SubAccountBuyForm(props: {
  applyId: number;
  cash: number;
  initialCode: string;
  onDone: () => void;
}) {
  const { LL } = useI18nContext();
  const money = useMoneyText();
  const [confirming, setConfirming] = useState(false);
  const buy = useStationMutation('POST /user/funds/buyFunds.do', {
    onSuccess: (position) => {
      setConfirming(false);
      showAlert(LL.fundsUi.boughtLots({ lots: position.lots, name: position.name }), 'success');
      props.onDone();
    },
    onError: (apiError) => form.showRefusal(apiError),
  });
  const form = useForm<'code' | 'lots'>({
    initial: { code: props.initialCode, lots: '1' },
    validate: ({ code, lots }) => ({
      code: /^\d{6}$/.test(code.trim()) ? null : LL.validation.invalid(),
      lots: lotsMessage(LL, checkLots(lots.trim(), 100), 100),
    }),
    sending: buy.isPending,
  });
  const { code, lots } = form.values;
  const cleanCode = /^\d{6}$/.test(code.trim()) ? code.trim() : null;
  const instrument = useInstrument('stock', cleanCode);
  const rules = useTradingRules();
  const quote = instrument.data;
  const lotsValue = Number(lots);
  const breakdown =
    quote && rules.data && Number.isInteger(lotsValue) && lotsValue > 0
      ? orderBreakdown(
          {
            market: quote.market,
            direction: 'long',
            lots: lotsValue,
            unitsPerLot: unitsPerLot(rules.data, quote.market, quote.code, quote),
            price: quote.price,
            leverage: 1,
            available: props.cash,
          },
          rules.data,
        )
      : null;

  const onSubmit = form.handleSubmit(() => {
    buy.reset();
    setConfirming(true);
  });

  return (
    <form className="funds-screen wallet-screen wallet-form" onSubmit={onSubmit} noValidate>
      <InfoRow label={LL.fundsUi.cash()} testId="sub-cash">
        {money(props.cash)}
      </InfoRow>
      <FormField
        label={LL.fundsUi.stockCode()}
        name="code"
        inputMode="numeric"
        placeholder={LL.fundsUi.codePlaceholder()}
        value={code}
        error={form.errors.code}
        data-testid="sub-code"
        onChange={(event) => form.setValue('code', event.target.value.replace(/\D/g, '').slice(0, 6))}
      />
      {quote ? (
        <InfoRow label={`${quote.name} · ${LL.fundsUi.price()}`} testId="sub-price">
          <PriceText value={quote.price} change={quote.change} />
        </InfoRow>
      ) : cleanCode && instrument.error ? (
        <p className="form-error">{instrument.error.message}</p>
      ) : null}
      <FormField
        label={LL.fundsUi.lots()}
        name="lots"
        inputMode="numeric"
        value={lots}
        error={form.errors.lots}
        data-testid="sub-lots"
        onChange={(event) => form.setValue('lots', event.target.value.replace(/\D/g, '').slice(0, 4))}
      />
      {breakdown ? (
        <p className="muted small num" data-testid="sub-cost">
          {LL.fundsUi.estimatedCost({ amount: money(breakdown.cost) })}
        </p>
      ) : null}
      {form.formError ? (
        <p className="form-error" role="alert" data-testid="sub-error">
          {form.formError}
        </p>
      ) : null}
      <button type="submit" className="button primary block" disabled={form.busy} data-testid="sub-buy">
        {form.busy ? LL.common.submitting() : LL.fundsUi.buyStocks()}
      </button>
      <Link to="/holdorderlist2" search={{ applyId: String(props.applyId) }} className="button block ghost">
        {LL.fundsUi.positions()}
      </Link>
      {confirming && cleanCode && (
        <ConfirmSheet
          testId="sub-buy-sheet"
          title={LL.fundsUi.subConfirmTitle()}
          text={LL.fundsUi.subConfirmText({
            quantity: quantityCount(LL, quote?.market ?? 'a', lotsValue),
            name: quote?.name ?? cleanCode,
            code: cleanCode,
          })}
          rows={
            breakdown
              ? [
                  { label: LL.fundsUi.costLabel(), value: money(breakdown.cost), testId: 'sub-confirm-cost' },
                  {
                    label: LL.fundsUi.cashAfter(),
                    value: money(breakdown.availableAfter),
                    testId: 'sub-confirm-after',
                  },
                ]
              : []
          }
          confirmLabel={LL.fundsUi.buyStocks()}
          busy={buy.isPending}
          error={buy.error?.message ?? null}
          onConfirm={() => buy.mutate({ applyId: props.applyId, code: cleanCode, lots: lotsValue })}
          onClose={() => setConfirming(false)}
        />
      )}
    </form>
  );
}
