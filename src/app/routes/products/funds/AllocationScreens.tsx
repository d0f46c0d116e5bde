/**
 * Fund allocation: /funds (the types and the current allocation), /days (the application, with the fee
 * shown before confirming: src/shared/allocation.ts computes what the station will charge) and /fundslist
 * (my allocations; with `?id=` one allocation's sub-account: the my-allocation view).
 */
import { useState } from 'react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useI18nContext } from '../../../../../locales/i18n-react';
import { quoteAllocation } from '../../../../shared/allocation';
import type { Allocation, AllocationType } from '../../../../shared/api/funds';
import { formatDateTime, formatRate } from '../../../../shared/format';
import { useExchangeTime } from '../../../i18n/exchange-time';
import { toMajor, toMinor } from '../../../../shared/money';
import { checkMoneyAmount } from '../../../../shared/validation';
import { useStationMutation, useStationQuery } from '../../../api/station-query';
import { FormField } from '../../../components/FormField';
import { LoggedOutPrompt } from '../../../components/LoggedOutPrompt';
import { RiskGauge, RiskLinesNote } from '../../../components/RiskGauge';
import { Sheet } from '../../../components/Sheet';
import { Empty, ErrorState, Loading } from '../../../components/StatusViews';
import { showAlert } from '../../../state/alert';
import { validationMessage } from '../../../forms/form-errors';
import { useForm } from '../../../forms/use-form';
import { cleanAmountInput, InfoRow, useMoneyText } from '../../../components/record-parts';
import '../../../components/wallet.css';
import '../../../components/funds.css';
import { useLoggedIn } from '../../../state/use-logged-in';

/** /funds: the allocation types and the user's current allocation. */
export function AllocationHomeScreen() {
  const { LL, locale } = useI18nContext();
  const money = useMoneyText();
  const loggedIn = useLoggedIn();
  const types = useStationQuery('GET /user/funds/getFundsTypeList.do', loggedIn ? {} : null);
  const current = useStationQuery('GET /user/funds/getUserSubaccount.do', loggedIn ? {} : null);
  if (!loggedIn) return <LoggedOutPrompt title={LL.user.loggedOutTitle()} text={LL.loginPrompt.text()} />;
  if (types.error && !types.data) return <ErrorState error={types.error} onRetry={types.reload} />;
  if (!types.data) return <Loading />;
  const active =
    current.data && ['review', 'trading'].includes(current.data.allocation.status) ? current.data : null;
  return (
    <div className="funds-screen wallet-screen">
      <p className="guide-text">{LL.fundsUi.intro()}</p>
      {active ? (
        <Link
          to="/fundslist"
          search={{ id: String(active.allocation.id) }}
          className="record"
          data-testid="current-allocation"
        >
          <strong>{LL.fundsUi.current()}</strong> <StatusTag allocation={active.allocation} />
          <InfoRow label={LL.fundsUi.tradingFunds()}>
            {money(active.allocation.margin + active.allocation.allocated)}
          </InfoRow>
        </Link>
      ) : null}
      <ul className="record-list">
        {types.data.map((type) => (
          <li key={type.code} className="record" data-testid={`allocation-type-${type.code}`}>
            <strong>{LL.fundsUi.typeName[type.code]()}</strong>
            <p className="muted small">
              {LL.fundsUi.typePeriod({ min: type.minDays, max: type.maxDays })} ·{' '}
              {LL.fundsUi.typeRate({ rate: formatRate(type.dailyFeeRate, locale) })} ·{' '}
              {LL.fundsUi.typeMultiples({ max: Math.max(...type.multiples) })}
            </p>
            <Link
              to="/days"
              search={{ type: type.code }}
              className="button primary small"
              data-testid={`apply-${type.code}`}
            >
              {LL.fundsUi.apply()}
            </Link>
          </li>
        ))}
      </ul>
      <Link to="/fundslist" className="button block ghost" data-testid="my-allocations">
        {LL.fundsUi.mine()}
      </Link>
    </div>
  );
}

function StatusTag({ allocation }: { allocation: Allocation }) {
  const { LL } = useI18nContext();
  return (
    <span
      className={`status-tag status-${allocation.status === 'trading' ? 'paid' : allocation.status === 'review' ? 'pending' : 'rejected'}`}
      data-testid="allocation-status"
    >
      {LL.fundsUi.status[allocation.status]()}
      {allocation.endReason ? ` · ${LL.fundsUi.endReason[allocation.endReason]()}` : ''}
    </span>
  );
}

/** /days: the application form (`?type=days|months`). */
export function AllocationApplyScreen() {
  const { LL } = useI18nContext();
  const loggedIn = useLoggedIn();
  const search = useSearch({ strict: false }) as { type?: string };
  const types = useStationQuery('GET /user/funds/getFundsTypeList.do', loggedIn ? {} : null);
  const setting = useStationQuery('GET /user/funds/getFundsSetting.do', loggedIn ? {} : null);
  if (!loggedIn) return <LoggedOutPrompt title={LL.user.loggedOutTitle()} text={LL.loginPrompt.text()} />;
  const failed = types.error ?? setting.error;
  if (failed && !(types.data && setting.data))
    return (
      <ErrorState
        error={failed}
        onRetry={() => {
          types.reload();
          setting.reload();
        }}
      />
    );
  if (!types.data || !setting.data) return <Loading />;
  const type = types.data.find((t) => t.code === search.type) ?? types.data[0];
  if (!type) return <Empty />;
  return <ApplyForm type={type} setting={setting.data} />;
}

type FundsSetting = NonNullable<
  ReturnType<typeof useStationQuery<'GET /user/funds/getFundsSetting.do'>>['data']
>;

/** The station's margin rule as it states it (getFundsSetting.do): a money amount within the range, in steps. */
function marginAllowed(margin: string, setting: FundsSetting): boolean {
  const value = Number(margin);
  return (
    checkMoneyAmount(margin.trim()) === null &&
    value >= setting.minMargin &&
    value <= setting.maxMargin &&
    Math.round(value) % setting.marginStep === 0
  );
}

/** Whole days within the allocation type's period. */
function daysAllowed(days: string, type: AllocationType): boolean {
  const value = Number(days);
  return Number.isInteger(value) && value >= type.minDays && value <= type.maxDays;
}

function ApplyForm({ type, setting }: { type: AllocationType; setting: FundsSetting }) {
  const { LL } = useI18nContext();
  const money = useMoneyText();
  const navigate = useNavigate();
  const [multiple, setMultiple] = useState(type.multiples[Math.min(2, type.multiples.length - 1)] ?? 1);
  const [agreed, setAgreed] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const apply = useStationMutation('POST /user/funds/addFundsApply.do', {
    onSuccess: (allocation) => {
      setConfirming(false);
      showAlert(LL.fundsUi.applied(), 'success');
      void navigate({ to: '/fundslist', search: { id: String(allocation.id) } });
    },
    onError: (apiError) => {
      setConfirming(false);
      form.showRefusal(apiError);
    },
  });
  const marginHint = LL.fundsUi.marginHint({
    min: money(setting.minMargin),
    max: money(setting.maxMargin),
    step: setting.marginStep,
  });
  const form = useForm<'margin' | 'days', 'margin' | 'days' | 'agree'>({
    initial: { margin: String(setting.minMargin * 10), days: String(type.minDays) },
    validate: ({ margin, days }) => ({
      margin: marginAllowed(margin, setting)
        ? null
        : (validationMessage(LL, checkMoneyAmount(margin.trim())) ?? marginHint),
      days: daysAllowed(days, type) ? null : LL.fundsUi.typePeriod({ min: type.minDays, max: type.maxDays }),
      agree: agreed ? null : LL.fundsUi.agreeRequired(),
    }),
    sending: apply.isPending,
  });
  const { margin, days } = form.values;
  const marginValue = Number(margin);
  const daysValue = Number(days);
  const marginOk = marginAllowed(margin, setting);
  const daysOk = daysAllowed(days, type);
  const quote =
    marginOk && daysOk
      ? quoteAllocation({
          margin: toMinor(marginValue),
          multiple,
          days: daysValue,
          dailyFeeRate: type.dailyFeeRate,
          warningLine: setting.warningLine,
          liquidationLine: setting.liquidationLine,
        })
      : null;

  const check = form.handleSubmit(() => setConfirming(true));

  const submit = () => apply.mutate({ typeCode: type.code, margin: marginValue, multiple, days: daysValue });

  return (
    <>
      <form className="funds-screen wallet-screen wallet-form" onSubmit={check} noValidate>
        <h2>{LL.fundsUi.typeName[type.code]()}</h2>
        <FormField
          label={LL.fundsUi.margin()}
          name="margin"
          inputMode="decimal"
          value={margin}
          error={form.errors.margin}
          data-testid="allocation-margin"
          hint={marginHint}
          onChange={(event) => form.setValue('margin', cleanAmountInput(event.target.value))}
        />
        <div className="field">
          <span className="field-label">{LL.fundsUi.multiple()}</span>
          <div className="multiple-chips" role="radiogroup" aria-label={LL.fundsUi.multiple()}>
            {type.multiples.map((m) => (
              <button
                key={m}
                type="button"
                role="radio"
                aria-checked={m === multiple}
                className={m === multiple ? 'chip selected' : 'chip'}
                data-testid={`multiple-${m}`}
                onClick={() => setMultiple(m)}
              >
                {LL.fundsUi.multipleValue({ n: m })}
              </button>
            ))}
          </div>
        </div>
        <FormField
          label={LL.fundsUi.days()}
          name="days"
          inputMode="numeric"
          value={days}
          error={form.errors.days}
          data-testid="allocation-days"
          hint={LL.fundsUi.typePeriod({ min: type.minDays, max: type.maxDays })}
          onChange={(event) => form.setValue('days', event.target.value.replace(/\D/g, '').slice(0, 4))}
        />
        {quote ? (
          <div className="allocation-quote" data-testid="allocation-quote">
            <InfoRow label={LL.fundsUi.allocated()} testId="quote-allocated">
              {money(toMajor(quote.allocated))}
            </InfoRow>
            <InfoRow label={LL.fundsUi.tradingFunds()}>{money(toMajor(quote.tradingFunds))}</InfoRow>
            <InfoRow label={LL.fundsUi.dailyFee()} testId="quote-daily-fee">
              {money(toMajor(quote.dailyFee))}
            </InfoRow>
            <InfoRow label={LL.fundsUi.totalFee()} testId="quote-total-fee">
              {money(toMajor(quote.totalFee))}
            </InfoRow>
            <InfoRow label={LL.fundsUi.warningValue()}>{money(toMajor(quote.warningValue))}</InfoRow>
            <InfoRow label={LL.fundsUi.liquidationValue()}>{money(toMajor(quote.liquidationValue))}</InfoRow>
          </div>
        ) : null}
        <label className="agree-label">
          <input
            type="checkbox"
            checked={agreed}
            data-testid="allocation-agree"
            onChange={(event) => {
              setAgreed(event.target.checked);
              form.setError('agree', undefined);
            }}
          />{' '}
          {LL.fundsUi.agree()} <Link to="/aggre">{LL.titles.userAgreement()}</Link>
        </label>
        {(form.errors.agree ?? form.formError) ? (
          <p className="form-error" role="alert" data-testid="allocation-error">
            {form.errors.agree ?? form.formError}
          </p>
        ) : null}
        <button type="submit" className="button primary block" data-testid="allocation-apply">
          {LL.fundsUi.apply()}
        </button>
      </form>
      <Sheet
        open={confirming}
        title={LL.fundsUi.confirmTitle()}
        onClose={() => setConfirming(false)}
        testId="allocation-confirm-sheet"
      >
        {quote ? (
          <p data-testid="allocation-confirm-text">
            {LL.fundsUi.confirmText({
              margin: money(toMajor(quote.margin)),
              fee: money(toMajor(quote.dailyFee)),
              total: money(toMajor(quote.totalFee)),
            })}
          </p>
        ) : null}
        <button
          type="button"
          className="button primary block"
          disabled={form.busy}
          data-testid="allocation-confirm"
          onClick={() => void submit()}
        >
          {form.busy ? LL.common.submitting() : LL.common.confirm()}
        </button>
      </Sheet>
    </>
  );
}

/** /fundslist: my allocations, or with `?id=` one allocation's sub-account. */
export function MyAllocationsScreen() {
  const { LL } = useI18nContext();
  const loggedIn = useLoggedIn();
  const search = useSearch({ strict: false }) as { id?: string };
  const id = search.id && /^\d{1,15}$/.test(search.id) ? Number(search.id) : null;
  if (!loggedIn) return <LoggedOutPrompt title={LL.user.loggedOutTitle()} text={LL.loginPrompt.text()} />;
  return id ? <AllocationView id={id} /> : <AllocationList />;
}

function AllocationList() {
  const { LL } = useI18nContext();
  const money = useMoneyText();
  const list = useStationQuery('GET /user/funds/getUserApplyList.do', { pageNum: 1, pageSize: 100 });
  if (list.error && !list.data) return <ErrorState error={list.error} onRetry={list.reload} />;
  if (!list.data) return <Loading />;
  if (list.data.list.length === 0) return <Empty text={LL.fundsUi.noAllocations()} />;
  return (
    <ul className="record-list funds-screen" data-testid="allocation-list">
      {list.data.list.map((a) => (
        <li key={a.id}>
          <Link
            to="/fundslist"
            search={{ id: String(a.id) }}
            className="record"
            data-testid={`allocation-${a.id}`}
          >
            <strong>{LL.fundsUi.title({ id: a.id })}</strong> <StatusTag allocation={a} />
            <InfoRow label={LL.fundsUi.allocated()}>
              {money(a.allocated)} ({LL.fundsUi.multipleValue({ n: a.multiple })})
            </InfoRow>
            <InfoRow label={LL.fundsUi.appliedAt()}>{formatDateTime(a.createdAt)}</InfoRow>
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** The my-allocation view: the allocation, its sub-account's figures and what can be done with it. */
function AllocationView({ id }: { id: number }) {
  const { LL } = useI18nContext();
  const exchangeTime = useExchangeTime();
  const money = useMoneyText();
  const sub = useStationQuery(
    'GET /user/funds/getUserSubaccount.do',
    { applyId: id },
    { refetchInterval: 10_000 },
  );
  const [ending, setEnding] = useState(false);
  // The end invalidates the sub-account (query-keys.ts), which shows the allocation's new status.
  const endAllocation = useStationMutation('POST /user/funds/endFundsApply.do', {
    onSuccess: () => showAlert(LL.fundsUi.ended(), 'success'),
    onError: (apiError) => {
      showAlert(apiError.message, 'error');
      sub.reload();
    },
    onSettled: () => setEnding(false),
  });
  if (sub.error && !sub.data) return <ErrorState error={sub.error} onRetry={sub.reload} />;
  if (sub.data === undefined) return <Loading />;
  if (sub.data === null) return <Empty text={LL.fundsUi.noAllocations()} />;
  const { allocation: a } = sub.data;
  const trading = a.status === 'trading';

  const end = () => endAllocation.mutate({ applyId: a.id });

  return (
    <div className="funds-screen wallet-screen" data-testid="allocation-view">
      <h2>
        {LL.fundsUi.title({ id: a.id })} <StatusTag allocation={a} />
      </h2>
      <InfoRow label={LL.fundsUi.margin()}>{money(a.margin)}</InfoRow>
      <InfoRow label={LL.fundsUi.allocated()} testId="view-allocated">
        {money(a.allocated)} ({LL.fundsUi.multipleValue({ n: a.multiple })})
      </InfoRow>
      <InfoRow label={LL.fundsUi.days()}>{a.days}</InfoRow>
      <InfoRow label={LL.fundsUi.dailyFee()}>{money(a.dailyFee)}</InfoRow>
      <InfoRow label={LL.fundsUi.feesCharged()}>{money(a.feesCharged)}</InfoRow>
      {a.expiresAt ? (
        <InfoRow label={LL.fundsUi.expiresAt()}>{exchangeTime(a.expiresAt, 'a')}</InfoRow>
      ) : null}
      {trading ? (
        <>
          <InfoRow label={LL.fundsUi.cash()} testId="view-cash">
            {money(sub.data.cash)}
          </InfoRow>
          <InfoRow label={LL.fundsUi.totalAssets()} testId="view-total">
            {money(sub.data.totalAssets)}
          </InfoRow>
          <InfoRow label={LL.fundsUi.pnl()}>{money(sub.data.pnl)}</InfoRow>
          {/* DOMAIN.md "Risk ratio": R = total assets ÷ allocated funds, on the allocation's own lines. */}
          <RiskGauge
            testId="allocation-risk"
            input={{
              ratio: sub.data.riskRatio,
              borrowed: a.allocated,
              longValue: sub.data.marketValue,
              warningLine: sub.data.warningLine,
              liquidationLine: sub.data.liquidationLine,
            }}
          />
          <InfoRow label={LL.fundsUi.warningValue()}>{money(a.warningValue)}</InfoRow>
          <InfoRow label={LL.fundsUi.liquidationValue()}>{money(a.liquidationValue)}</InfoRow>
          <RiskLinesNote warningLine={sub.data.warningLine} liquidationLine={sub.data.liquidationLine} />
          <div className="funds-actions">
            <Link
              to="/subWarehouseBuy"
              search={{ applyId: String(a.id) }}
              className="button primary"
              data-testid="sub-buy-link"
            >
              {LL.fundsUi.buyStocks()}
            </Link>
            <Link
              to="/holdorderlist2"
              search={{ applyId: String(a.id) }}
              className="button"
              data-testid="sub-positions-link"
            >
              {LL.fundsUi.positions()}
            </Link>
            <button
              type="button"
              className="button ghost"
              data-testid="allocation-end"
              onClick={() => setEnding(true)}
            >
              {LL.fundsUi.endEarly()}
            </button>
          </div>
        </>
      ) : (
        <>
          {a.returned !== null ? (
            <InfoRow label={LL.fundsUi.returned()} testId="view-returned">
              {money(a.returned)}
            </InfoRow>
          ) : null}
          {a.rejectReason ? <p className="muted small">{a.rejectReason}</p> : null}
          {a.startedAt ? (
            <Link to="/holdorderlist2" search={{ applyId: String(a.id) }} className="button block ghost">
              {LL.fundsUi.positions()}
            </Link>
          ) : null}
        </>
      )}
      <Sheet open={ending} title={LL.fundsUi.endEarly()} onClose={() => setEnding(false)}>
        <p>{LL.fundsUi.endConfirm()}</p>
        <button
          type="button"
          className="button primary block"
          disabled={endAllocation.isPending}
          data-testid="allocation-end-confirm"
          onClick={() => void end()}
        >
          {endAllocation.isPending ? LL.common.submitting() : LL.common.confirm()}
        </button>
      </Sheet>
    </div>
  );
}
