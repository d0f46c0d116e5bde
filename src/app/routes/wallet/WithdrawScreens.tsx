/**
 * Withdrawals (spec §2 /withdraw, /cash, /cashlist, /cashWithdrawalRecord): KYC, a bank card and the
 * withdrawal password come first (the screen leads to each missing one); then the amount within what may
 * be withdrawn now, with the fee; a pending withdrawal can be cancelled with a reason.
 */
import { useState } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { User, Withdrawal, WithdrawalStatus, WithdrawInfo } from '../../../shared/api/types';
import { formatDateTime, formatRate } from '../../../shared/format';
import { checkMoneyAmount, checkWithdrawPassword } from '../../../shared/validation';
import { useStationMutation, useStationPages, useStationQuery } from '../../api/station-query';
import { BANK_INFO_READ, WITHDRAW_INFO_READ } from './wallet-reads';
import { FormField } from '../../components/FormField';
import { FormSubmit } from '../../components/FormSubmit';
import { LoggedOutPrompt } from '../../components/LoggedOutPrompt';
import { Sheet } from '../../components/Sheet';
import { SheetButtons } from '../../components/SheetButtons';
import { ErrorState, Loading } from '../../components/StatusViews';
import { showAlert } from '../../state/alert';
import { validationMessage } from '../../forms/form-errors';
import { useForm } from '../../forms/use-form';
import { UserText } from '../../components/UserText';
import {
  Chevron,
  cleanAmountInput,
  InfoRow,
  PagedList,
  roundCents,
  useFreshUser,
  useMoneyText,
} from '../../components/record-parts';
import '../../components/wallet.css';
import { useLoggedIn } from '../../state/use-logged-in';

/** The back office keeps a cancel reason to this many characters (server MAX_REASON_LENGTH). */
export const MAX_CANCEL_REASON = 200;

type Missing = 'kyc' | 'bankCard' | 'withdrawPassword';

/** spec §5/§6: what a withdrawal still needs, in the order the user should do it. */
export function missingForWithdrawal(user: User): Missing[] {
  const missing: Missing[] = [];
  if (user.kycStatus !== 'passed') missing.push('kyc');
  if (!user.hasBankCard) missing.push('bankCard');
  if (!user.hasWithdrawPassword) missing.push('withdrawPassword');
  return missing;
}

/** /withdraw and /cash. */
export function WithdrawScreen() {
  const { LL } = useI18nContext();
  const loggedIn = useLoggedIn();
  if (!loggedIn) return <LoggedOutPrompt title={LL.user.loggedOutTitle()} text={LL.loginPrompt.text()} />;
  return <WithdrawGate />;
}

function WithdrawGate() {
  const { user, loading, error, reload } = useFreshUser();
  if (!user)
    return loading ? <Loading /> : error ? <ErrorState error={error} onRetry={reload} /> : <Loading />;
  const missing = missingForWithdrawal(user);
  if (missing.length > 0) return <WithdrawPrerequisites user={user} missing={missing} />;
  return <WithdrawForm />;
}

function WithdrawPrerequisites({ user, missing }: { user: User; missing: Missing[] }) {
  const { LL } = useI18nContext();
  const steps = [
    {
      key: 'kyc' as const,
      to: '/authentication' as const,
      label: LL.titles.kyc(),
      state: user.kycStatus === 'passed' ? LL.wallet.done() : LL.user.kyc[user.kycStatus](),
    },
    {
      key: 'bankCard' as const,
      to: '/addCard' as const,
      label: LL.titles.bankCard(),
      state: user.hasBankCard ? LL.wallet.done() : LL.wallet.notYet(),
    },
    {
      key: 'withdrawPassword' as const,
      to: '/setPassword' as const,
      label: LL.titles.withdrawPassword(),
      state: user.hasWithdrawPassword ? LL.wallet.done() : LL.wallet.notYet(),
    },
  ];
  const first = missing[0];
  return (
    <div className="wallet-screen" data-testid="withdraw-prerequisites" data-missing={missing.join(' ')}>
      <p className="guide-text">{first ? LL.wallet.needsFirst[first]() : ''}</p>
      <nav className="menu-list">
        {steps.map((step) => {
          const blocked = step.key === 'bankCard' && user.kycStatus !== 'passed';
          const isMissing = missing.includes(step.key);
          return isMissing && !blocked ? (
            <Link key={step.key} to={step.to} className="menu-item todo" data-testid={`needs-${step.key}`}>
              <span>{step.label}</span>
              <span className="muted small">{step.state}</span>
              <Chevron />
            </Link>
          ) : (
            <div key={step.key} className="menu-item">
              <span>{step.label}</span>
              <span className="muted small">{step.state}</span>
            </div>
          );
        })}
      </nav>
    </div>
  );
}

type WithdrawField = 'amount' | 'password';

/** spec §5: a correct amount, not below the minimum, within the maximum and what may be withdrawn now. */
export function withdrawAmountProblem(
  raw: string,
  info: WithdrawInfo,
):
  | { key: 'invalid'; validation: NonNullable<ReturnType<typeof checkMoneyAmount>> }
  | { key: 'min' | 'max' | 'withdrawable'; limit: number }
  | null {
  const invalid = checkMoneyAmount(raw);
  if (invalid) return { key: 'invalid', validation: invalid };
  const amount = Number(raw);
  if (amount < info.minAmount) return { key: 'min', limit: info.minAmount };
  if (amount > info.maxAmount) return { key: 'max', limit: info.maxAmount };
  if (amount > info.withdrawable) return { key: 'withdrawable', limit: info.withdrawable };
  return null;
}

function WithdrawForm() {
  const { LL, locale } = useI18nContext();
  const navigate = useNavigate();
  const money = useMoneyText();
  const info = useStationQuery(WITHDRAW_INFO_READ.key, WITHDRAW_INFO_READ.input);
  const bank = useStationQuery(BANK_INFO_READ.key, BANK_INFO_READ.input);
  // Its requestId, pending state and what it refreshes (the records, the accounts, withdrawable cash).
  const withdraw = useStationMutation('POST /user/withdraw/outMoney.do');
  const limits = info.data;

  const amountMessage = (amount: string): string | null => {
    const problem = limits ? withdrawAmountProblem(amount.trim(), limits) : null;
    if (!problem) return null;
    switch (problem.key) {
      case 'invalid':
        return validationMessage(LL, problem.validation);
      case 'min':
        return LL.wallet.belowMinWithdraw({ min: money(problem.limit) });
      case 'max':
        return LL.wallet.aboveMaxWithdraw({ max: money(problem.limit) });
      case 'withdrawable':
        return LL.wallet.aboveWithdrawable({ amount: money(problem.limit) });
    }
  };

  const form = useForm<WithdrawField>({
    initial: { amount: '', password: '' },
    validate: (values) => ({
      amount: amountMessage(values.amount),
      password: validationMessage(LL, checkWithdrawPassword(values.password)),
    }),
    sending: withdraw.isPending,
    stationNames: { withdrawPassword: 'password' },
    refusalCodes: { BAD_WITHDRAW_PASSWORD: 'password' },
  });
  const { values, errors } = form;

  if (info.loading) return <Loading />;
  if (!limits) return info.error ? <ErrorState error={info.error} onRetry={info.reload} /> : <Loading />;
  const amountNumber = Number(values.amount);
  const fee = checkMoneyAmount(values.amount) ? 0 : roundCents(amountNumber * limits.feeRate);

  const onSubmit = form.handleSubmit((values) => {
    withdraw.mutate(
      { amount: Number(values.amount), withdrawPassword: values.password.trim() },
      {
        onSuccess: () => {
          showAlert(LL.wallet.withdrawSubmitted(), 'success');
          void navigate({ to: '/cashWithdrawalRecord' });
        },
        onError: form.showRefusal,
      },
    );
  });

  return (
    <form className="wallet-screen wallet-form" onSubmit={onSubmit} noValidate>
      <p className="play-money-note">{LL.wallet.playMoneyNote()}</p>
      <section className="summary-card" data-testid="withdraw-info">
        <InfoRow label={LL.wallet.withdrawable()} testId="withdrawable">
          <strong className="num" data-value={String(limits.withdrawable)}>
            {money(limits.withdrawable, 'CNY')}
          </strong>
        </InfoRow>
        <InfoRow label={LL.user.available()} testId="withdraw-available">
          <span className="num" data-value={String(limits.available)}>
            {money(limits.available, 'CNY')}
          </span>
        </InfoRow>
        {limits.unsettled > 0 && (
          <InfoRow label={LL.wallet.unsettled()}>
            <span className="num">{money(limits.unsettled, 'CNY')}</span>
          </InfoRow>
        )}
        <InfoRow label={LL.wallet.feeRate()}>
          <span className="num">{formatRate(limits.feeRate, locale)}</span>
        </InfoRow>
        <InfoRow label={LL.wallet.withdrawHours()}>
          <span className="num">{limits.hours}</span>
        </InfoRow>
        {bank.data && (
          <InfoRow label={LL.wallet.toCard()}>
            <UserText text={bank.data.bankName} /> <span className="num">{bank.data.cardNoMasked}</span>
          </InfoRow>
        )}
      </section>
      {!limits.open && (
        <p className="form-error" data-testid="withdraw-closed">
          {LL.wallet.withdrawClosed({ hours: limits.hours })}
        </p>
      )}
      <FormField
        label={LL.wallet.amount()}
        name="amount"
        inputMode="decimal"
        autoComplete="off"
        placeholder={LL.wallet.amountRange({ min: money(limits.minAmount), max: money(limits.maxAmount) })}
        value={values.amount}
        error={errors.amount}
        onChange={(event) => form.setValue('amount', cleanAmountInput(event.target.value))}
        addon={
          <button
            type="button"
            className="button ghost small"
            onClick={() => form.setValue('amount', String(Math.min(limits.withdrawable, limits.maxAmount)))}
          >
            {LL.wallet.all()}
          </button>
        }
        hint={
          <span data-testid="withdraw-fee">
            {LL.wallet.feePreview({
              fee: money(fee),
              receive: money(Math.max(0, roundCents(amountNumber - fee) || 0)),
            })}
          </span>
        }
      />
      <FormField
        label={LL.wallet.fundPassword()}
        name="password"
        type="password"
        inputMode="numeric"
        autoComplete="off"
        maxLength={6}
        placeholder={LL.wallet.withdrawPasswordPlaceholder()}
        value={values.password}
        error={errors.password}
        onChange={form.change('password')}
      />
      <FormSubmit
        formError={form.formError}
        busy={form.busy}
        label={LL.wallet.submitWithdraw()}
        testId="withdraw-submit"
      />
      <p className="muted small">{LL.wallet.arrivalNote()}</p>
    </form>
  );
}

export function WithdrawStatusTag({ status }: { status: WithdrawalStatus }) {
  const { LL } = useI18nContext();
  return (
    <span className={`status-tag status-${status}`} data-testid="withdraw-status" data-status={status}>
      {LL.wallet.withdrawStatus[status]()}
    </span>
  );
}

/** /cashlist and /cashWithdrawalRecord: every withdrawal; a pending one can be cancelled with a reason. */
export function WithdrawRecordsScreen() {
  const { LL } = useI18nContext();
  const money = useMoneyText();
  const [cancelling, setCancelling] = useState<Withdrawal | null>(null);
  // A cancellation invalidates this list (and the accounts): no reload counter of its own.
  const pages = useStationPages('GET /user/withdraw/list.do', { pageSize: 20 });
  return (
    <div className="wallet-screen">
      <PagedList pages={pages} emptyText={LL.wallet.noWithdrawals()} testId="withdraw-list">
        {(withdrawal) => (
          <li key={withdrawal.id} className="record" data-testid="withdraw-row" data-id={withdrawal.id}>
            <div className="record-head">
              <strong className="num">{money(withdrawal.amount, 'CNY')}</strong>
              <WithdrawStatusTag status={withdrawal.status} />
            </div>
            <InfoRow label={LL.wallet.orderNo()}>
              <span className="num">{withdrawal.orderNo}</span>
            </InfoRow>
            <InfoRow label={LL.wallet.fee()}>
              <span className="num">{money(withdrawal.fee)}</span>
            </InfoRow>
            <InfoRow label={LL.wallet.toCard()}>
              <span lang="zh-CN">{withdrawal.payeeName}</span> · <UserText text={withdrawal.bankName} />{' '}
              <span className="num">{withdrawal.cardNoMasked}</span>
            </InfoRow>
            <InfoRow label={LL.wallet.time()}>
              <span className="num">{formatDateTime(withdrawal.createdAt)}</span>
            </InfoRow>
            {withdrawal.cancelReason && (
              <InfoRow label={LL.wallet.cancelReason()} testId="cancel-reason">
                {withdrawal.cancelReason}
              </InfoRow>
            )}
            {withdrawal.rejectReason && (
              <InfoRow label={LL.wallet.reason()}>{withdrawal.rejectReason}</InfoRow>
            )}
            {withdrawal.status === 'pending' && (
              <button
                type="button"
                className="button danger-outline small"
                data-testid="withdraw-cancel"
                onClick={() => setCancelling(withdrawal)}
              >
                {LL.wallet.cancelWithdraw()}
              </button>
            )}
          </li>
        )}
      </PagedList>
      <CancelWithdrawalSheet
        withdrawal={cancelling}
        onClose={() => setCancelling(null)}
        onCancelled={() => setCancelling(null)}
      />
    </div>
  );
}

function CancelWithdrawalSheet({
  withdrawal,
  onClose,
  onCancelled,
}: {
  withdrawal: Withdrawal | null;
  onClose: () => void;
  onCancelled: () => void;
}) {
  const { LL } = useI18nContext();
  const cancel = useStationMutation('POST /user/withdraw/cancel.do');
  const form = useForm<'reason'>({
    initial: { reason: '' },
    validate: (values) => ({
      reason: values.reason.trim() === '' ? LL.wallet.cancelReasonEmpty() : null,
    }),
    sending: cancel.isPending,
  });
  // The sheet has one place for a message, under the reason: the station's refusal is read there too.
  const error = form.errors.reason ?? form.formError;

  const onConfirm = form.handleSubmit((values) => {
    if (!withdrawal) return;
    cancel.mutate(
      { id: withdrawal.id, reason: values.reason.trim() },
      {
        onSuccess: () => {
          showAlert(LL.wallet.withdrawCancelled(), 'success');
          form.reset();
          onCancelled();
        },
        onError: form.showRefusal,
      },
    );
  });

  return (
    <Sheet
      open={withdrawal !== null}
      title={LL.wallet.cancelWithdraw()}
      onClose={onClose}
      testId="cancel-sheet"
    >
      <div className="field">
        <label htmlFor="cancel-reason">{LL.wallet.cancelReason()}</label>
        <textarea
          id="cancel-reason"
          name="reason"
          rows={3}
          maxLength={MAX_CANCEL_REASON}
          placeholder={LL.wallet.cancelReasonPlaceholder()}
          value={form.values.reason}
          onChange={(event) => {
            form.change('reason')(event);
            form.setFormError(null);
          }}
        />
        {error && (
          <p className="field-error" data-testid="error-reason">
            {error}
          </p>
        )}
      </div>
      <SheetButtons
        label={LL.common.confirm()}
        busy={form.busy}
        onConfirm={onConfirm}
        onCancel={onClose}
        testId="cancel-confirm"
      />
    </Sheet>
  );
}
