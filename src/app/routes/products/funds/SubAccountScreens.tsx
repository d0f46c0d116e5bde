/**
 * The split account of a fund allocation: /subWarehouseBuy (a market buy of an A-share or STAR stock in the
 * sub-account, `?applyId=&code=`) and the sub-account's positions, shown by /holdorderlist2 with `?applyId=`.
 */
import { useState, type FormEvent } from 'react';
import { Link, useSearch } from '@tanstack/react-router';
import { useI18nContext } from '../../../../../locales/i18n-react';
import type { Position } from '../../../../shared/api/types';
import { formatDateTime } from '../../../../shared/format';
import { orderBreakdown, unitsPerLot } from '../../../../shared/trading-rules';
import { checkLots } from '../../../../shared/validation';
import { useStationMutation, useStationQuery } from '../../../api/station-query';
import { FormField } from '../../../components/FormField';
import { PriceText } from '../../../components/PriceText';
import { Sheet } from '../../../components/Sheet';
import { Empty, ErrorState, Loading } from '../../../components/StatusViews';
import { Tabs } from '../../../components/Tabs';
import { showAlert } from '../../../state/alert';
import { validationMessage } from '../../account/form-errors';
import { useInstrument, useTradingRules } from '../../trade/trading-data';
import { InfoRow, useMoneyText } from '../../wallet/wallet-parts';
import '../../wallet/wallet.css';
import './funds.css';

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
  const [code, setCode] = useState(props.initialCode);
  const [lots, setLots] = useState('1');
  const [error, setError] = useState<{ code?: string; lots?: string; form?: string }>({});
  const buy = useStationMutation('POST /user/funds/buyFunds.do', {
    onSuccess: (position) => {
      showAlert(LL.fundsUi.boughtLots({ lots: position.lots, name: position.name }), 'success');
      props.onDone();
    },
    onError: (apiError) =>
      setError({ code: apiError.fields?.code, lots: apiError.fields?.lots, form: apiError.message }),
  });
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

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const lotsError = validationMessage(LL, checkLots(lots.trim(), 100));
    const codeError = cleanCode ? null : LL.validation.invalid();
    setError({ ...(lotsError ? { lots: lotsError } : {}), ...(codeError ? { code: codeError } : {}) });
    if (lotsError || codeError || !cleanCode) return;
    buy.mutate({ applyId: props.applyId, code: cleanCode, lots: lotsValue });
  };

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
        error={error.code}
        data-testid="sub-code"
        onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, 6))}
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
        error={error.lots}
        data-testid="sub-lots"
        onChange={(event) => setLots(event.target.value.replace(/\D/g, '').slice(0, 4))}
      />
      {breakdown ? (
        <p className="muted small num" data-testid="sub-cost">
          {LL.fundsUi.estimatedCost({ amount: money(breakdown.cost) })}
        </p>
      ) : null}
      {error.form ? (
        <p className="form-error" role="alert" data-testid="sub-error">
          {error.form}
        </p>
      ) : null}
      <button type="submit" className="button primary block" disabled={buy.isPending} data-testid="sub-buy">
        {buy.isPending ? LL.common.submitting() : LL.fundsUi.buyStocks()}
      </button>
      <Link to="/holdorderlist2" search={{ applyId: String(props.applyId) }} className="button block ghost">
        {LL.fundsUi.positions()}
      </Link>
    </form>
  );
}

/** The sub-account's open or closed positions, with a sell for open ones (on /holdorderlist2?applyId=). */
export function SubAccountPositions({ applyId }: { applyId: number }) {
  const { LL } = useI18nContext();
  const [state, setState] = useState<'open' | 'closed'>('open');
  const list = useStationQuery(
    'GET /user/funds/fundsList.do',
    { applyId, state, pageNum: 1, pageSize: 100 },
    { refetchInterval: 10_000 },
  );
  const [selling, setSelling] = useState<Position | null>(null);
  return (
    <div className="funds-screen" data-testid="sub-positions">
      <Tabs
        items={[
          { key: 'open', label: LL.positions.tabOpen(), testId: 'sub-tab-open' },
          { key: 'closed', label: LL.positions.tabClosed(), testId: 'sub-tab-closed' },
        ]}
        value={state}
        label={LL.fundsUi.positions()}
        onChange={setState}
      />
      {list.error && !list.data ? (
        <ErrorState error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading />
      ) : list.data.list.length === 0 ? (
        <Empty text={state === 'open' ? LL.positions.empty() : LL.positions.emptyClosed()} />
      ) : (
        <ul className="record-list">
          {list.data.list.map((p) => (
            <li key={p.id} className="record" data-testid={`sub-position-${p.id}`}>
              <strong>
                {p.name} <span className="muted small">{p.code}</span>
              </strong>
              <InfoRow label={LL.positions.lots()}>{LL.fundsUi.lotsValue({ lots: p.lots })}</InfoRow>
              <InfoRow label={LL.positions.openPrice()}>{p.openPrice}</InfoRow>
              <InfoRow label={state === 'open' ? LL.positions.currentPrice() : LL.positions.closePrice()}>
                {p.closePrice ?? p.currentPrice}
              </InfoRow>
              <InfoRow label={LL.positions.pnl()}>
                <PriceText value={p.pnl} change={p.pnl} signed />
              </InfoRow>
              {p.closeReason ? (
                <InfoRow label={LL.positions.closedAt()}>
                  <span data-testid="sub-close-reason">{LL.positions.closeReason[p.closeReason]()}</span> ·{' '}
                  {p.closedAt ? formatDateTime(p.closedAt) : ''}
                </InfoRow>
              ) : (
                <button
                  type="button"
                  className="button small"
                  data-testid={`sub-sell-${p.id}`}
                  onClick={() => setSelling(p)}
                >
                  {LL.positions.sell()}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <SellSheet applyId={applyId} position={selling} onClose={() => setSelling(null)} onDone={list.reload} />
    </div>
  );
}

function SellSheet(props: {
  applyId: number;
  position: Position | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { LL } = useI18nContext();
  const p = props.position;
  const sellFunds = useStationMutation('POST /user/funds/sellFunds.do', {
    onSuccess: () => {
      showAlert(LL.positions.sellSuccess(), 'success');
      props.onDone();
    },
    onError: (apiError) => showAlert(apiError.message, 'error'),
    onSettled: props.onClose,
  });
  const sell = () => {
    if (p) sellFunds.mutate({ applyId: props.applyId, positionId: p.id });
  };
  return (
    <Sheet open={p !== null} title={LL.positions.sellTitle()} onClose={props.onClose}>
      {p ? <p>{LL.positions.sellText({ shares: p.shares, name: p.name, code: p.code })}</p> : null}
      <button
        type="button"
        className="button primary block"
        disabled={sellFunds.isPending}
        data-testid="sub-sell-confirm"
        onClick={sell}
      >
        {sellFunds.isPending ? LL.common.submitting() : LL.positions.sellConfirm()}
      </button>
    </Sheet>
  );
}
