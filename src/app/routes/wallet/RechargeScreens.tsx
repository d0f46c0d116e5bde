/**
 * Deposits (spec §2 /recharge → /rechargeSure → /zf, /rechargelist, /btc): pick a simulated pay channel,
 * an amount within its limits, confirm, then follow the order until the station decides it. Play money.
 */
import { useState } from 'react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { PayChannel, Recharge, RechargeStatus, SiteSetting } from '../../../shared/api/types';
import { formatDateTime } from '../../../shared/format';
import { checkMoneyAmount, type ValidationKey } from '../../../shared/validation';
import { useStationMutation, useStationPages, useStationQuery } from '../../api/station-query';
import { SETTING_READ } from '../../api/reads';
import { PAY_INFO_READ } from './wallet-reads';
import { FormField } from '../../components/FormField';
import { Empty, ErrorState, Loading } from '../../components/StatusViews';
import { validationMessage } from '../../forms/form-errors';
import { useForm } from '../../forms/use-form';
import { cleanAmountInput, InfoRow, PagedList, useMoneyText } from '../../components/record-parts';
import '../../components/wallet.css';

/** A pending deposit is asked about again this often while /zf is open. */
const PAYMENT_POLL_MS = 3000;
const QUICK_AMOUNTS = [100, 500, 1000, 5000, 10000] as const;

/** The channel of getPayInfo.do that is the crypto channel of /btc, if the station offers one. */
export const isCryptoChannel = (channel: PayChannel): boolean => channel.type === 'crypto';

/** The lowest and highest deposit a channel takes: its own limits within the site's minimum. */
export function depositLimits(
  channel: PayChannel,
  setting: SiteSetting | undefined,
): { min: number; max: number } {
  return { min: Math.max(channel.minAmount, setting?.minRecharge ?? 0), max: channel.maxAmount };
}

export type AmountProblem =
  { key: 'validation'; message: ValidationKey } | { key: 'min' | 'max'; limit: number };

/** spec §5/§8: the amount must be correct; a deposit below the minimum is refused before it is sent. */
export function checkDepositAmount(raw: string, limits: { min: number; max: number }): AmountProblem | null {
  const invalid = checkMoneyAmount(raw);
  if (invalid) return { key: 'validation', message: invalid };
  const amount = Number(raw);
  if (amount < limits.min) return { key: 'min', limit: limits.min };
  if (amount > limits.max) return { key: 'max', limit: limits.max };
  return null;
}

/** An amount problem as the user's message, with `kind` naming the limits (deposit or withdrawal). */
export function useAmountMessage() {
  const { LL } = useI18nContext();
  const money = useMoneyText();
  return (problem: AmountProblem | null): string | null => {
    if (!problem) return null;
    if (problem.key === 'validation') return validationMessage(LL, problem.message);
    return problem.key === 'min'
      ? LL.wallet.belowMinDeposit({ min: money(problem.limit) })
      : LL.wallet.aboveMaxDeposit({ max: money(problem.limit) });
  };
}

/** /recharge: channel and amount. */
export function RechargeScreen() {
  const { LL } = useI18nContext();
  const navigate = useNavigate();
  const money = useMoneyText();
  const amountMessage = useAmountMessage();
  const search = useSearch({ strict: false }) as { channelId?: number };
  const channels = useStationQuery(PAY_INFO_READ.key, PAY_INFO_READ.input);
  const setting = useStationQuery(SETTING_READ.key, SETTING_READ.input);
  const [picked, setPicked] = useState<number | null>(search.channelId ?? null);
  const list = channels.data ?? [];
  const channel = list.find((c) => c.id === picked) ?? list[0];
  const limits = channel ? depositLimits(channel, setting.data) : null;
  const form = useForm<'amount'>({
    initial: { amount: '' },
    validate: (values) => ({
      amount: limits ? amountMessage(checkDepositAmount(values.amount.trim(), limits)) : null,
    }),
  });

  if (channels.loading) return <Loading />;
  if (!channels.data) {
    return channels.error ? <ErrorState error={channels.error} onRetry={channels.reload} /> : <Loading />;
  }
  if (!channel || !limits) return <Empty text={LL.wallet.noChannels()} />;

  const onSubmit = form.handleSubmit((values) => {
    void navigate({ to: '/rechargeSure', search: { channelId: channel.id, amount: Number(values.amount) } });
  });

  return (
    <form className="wallet-screen wallet-form" onSubmit={onSubmit} noValidate>
      <p className="play-money-note">{LL.wallet.playMoneyNote()}</p>
      <fieldset className="choice-list">
        <legend className="section-title">{LL.wallet.channel()}</legend>
        {list.map((c) => (
          <label
            key={c.id}
            className={c.id === channel.id ? 'choice selected' : 'choice'}
            data-testid={`channel-${c.id}`}
          >
            <input
              type="radio"
              name="channel"
              value={c.id}
              checked={c.id === channel.id}
              onChange={() => {
                setPicked(c.id);
                form.setError('amount', undefined);
              }}
            />
            <span className="choice-main">{c.name}</span>
            <span className="muted small num">
              {LL.wallet.limits({ min: money(c.minAmount), max: money(c.maxAmount) })}
            </span>
          </label>
        ))}
      </fieldset>
      <FormField
        label={LL.wallet.amount()}
        name="amount"
        inputMode="decimal"
        autoComplete="off"
        placeholder={LL.wallet.amountRange({ min: money(limits.min), max: money(limits.max) })}
        value={form.values.amount}
        error={form.errors.amount}
        onChange={(event) => form.setValue('amount', cleanAmountInput(event.target.value))}
        hint={setting.data ? LL.wallet.depositHours({ hours: setting.data.rechargeHours }) : undefined}
      />
      <div className="chip-row">
        {QUICK_AMOUNTS.map((value) => (
          <button
            key={value}
            type="button"
            className="chip"
            onClick={() => form.setValue('amount', String(value))}
          >
            {money(value)}
          </button>
        ))}
      </div>
      <button type="submit" className="button primary block" data-testid="recharge-next">
        {LL.wallet.next()}
      </button>
    </form>
  );
}

/** /rechargeSure?channelId=&amount=: the channel's (simulated) payee and the amount; confirm sends it. */
export function RechargeConfirmScreen() {
  const { LL } = useI18nContext();
  const navigate = useNavigate();
  const money = useMoneyText();
  const amountMessage = useAmountMessage();
  const { channelId, amount } = useSearch({ strict: false }) as { channelId?: number; amount?: number };
  const channels = useStationQuery('GET /api/site/getPayInfo.do', {});
  const setting = useStationQuery('GET /api/admin/getSetting.do', {});
  const deposit = useStationMutation('POST /user/recharge/inMoney.do');
  const found = channels.data?.find((c) => c.id === channelId);
  // No field to type in: the amount comes from /recharge and is checked again against the channel's limits.
  const form = useForm<never, 'amount'>({
    initial: {},
    validate: () => ({
      amount:
        found && amount !== undefined
          ? amountMessage(checkDepositAmount(String(amount), depositLimits(found, setting.data)))
          : null,
    }),
    sending: deposit.isPending,
  });
  // The screen's one message: the amount's (checked here or refused by the station) or the station's own.
  const error = form.errors.amount ?? form.formError;

  if (channels.loading) return <Loading />;
  if (!channels.data) {
    return channels.error ? <ErrorState error={channels.error} onRetry={channels.reload} /> : <Loading />;
  }
  const channel = found;
  if (!channel || amount === undefined) {
    return (
      <div className="wallet-screen">
        <Empty text={LL.wallet.depositMissing()} />
        <Link to="/recharge" className="button secondary block">
          {LL.titles.recharge()}
        </Link>
      </div>
    );
  }

  const onConfirm = form.handleSubmit(() => {
    deposit.mutate(
      { amount, channelId: channel.id },
      {
        onSuccess: (recharge) => void navigate({ to: '/zf', search: { id: recharge.id } }),
        onError: form.showRefusal,
      },
    );
  });

  return (
    <div className="wallet-screen">
      <p className="play-money-note">{LL.wallet.playMoneyNote()}</p>
      <section className="summary-card" data-testid="recharge-summary">
        <InfoRow label={LL.wallet.amount()} testId="confirm-amount">
          <strong className="num">{money(amount, 'CNY')}</strong>
        </InfoRow>
        <InfoRow label={LL.wallet.channel()}>{channel.name}</InfoRow>
        {channel.payee && <InfoRow label={LL.wallet.payee()}>{channel.payee}</InfoRow>}
        {channel.bank && <InfoRow label={LL.wallet.bank()}>{channel.bank}</InfoRow>}
        {channel.account && (
          <InfoRow label={LL.wallet.payeeAccount()}>
            <span className="num">{channel.account}</span>
          </InfoRow>
        )}
      </section>
      {error && (
        <p className="form-error" role="alert" data-testid="form-error">
          {error}
        </p>
      )}
      <button
        type="button"
        className="button primary block"
        data-testid="recharge-confirm"
        disabled={form.busy}
        onClick={onConfirm}
      >
        {form.busy ? LL.common.submitting() : LL.wallet.confirmDeposit()}
      </button>
    </div>
  );
}

/** /zf?id=: the deposit order — order number, amount, channel and its status until the station decides. */
export function PaymentScreen() {
  const { LL } = useI18nContext();
  const { id } = useSearch({ strict: false }) as { id?: number };
  const [settled, setSettled] = useState(false);
  const list = useStationQuery(
    'GET /user/recharge/list.do',
    id ? { pageNum: 1, pageSize: 50 } : null,
    settled ? {} : { refetchInterval: PAYMENT_POLL_MS },
  );
  const recharge = list.data?.list.find((r) => r.id === id);
  if (recharge && recharge.status !== 'pending' && !settled) setSettled(true);

  if (!id) return <Empty text={LL.wallet.depositMissing()} />;
  if (list.loading) return <Loading />;
  if (!recharge) {
    return list.error ? (
      <ErrorState error={list.error} onRetry={list.reload} />
    ) : (
      <Empty text={LL.wallet.depositMissing()} />
    );
  }
  return (
    <div className="wallet-screen">
      <RechargeCard recharge={recharge} />
      {recharge.status === 'pending' && <p className="muted small center">{LL.wallet.waitingForChannel()}</p>}
      <div className="button-row">
        <Link to="/rechargelist" className="button secondary">
          {LL.titles.rechargeRecords()}
        </Link>
        <Link to="/user" className="button primary">
          {LL.titles.personalCenter()}
        </Link>
      </div>
    </div>
  );
}

export function RechargeStatusTag({ status }: { status: RechargeStatus }) {
  const { LL } = useI18nContext();
  return (
    <span className={`status-tag status-${status}`} data-testid="recharge-status" data-status={status}>
      {LL.wallet.rechargeStatus[status]()}
    </span>
  );
}

function RechargeCard({ recharge }: { recharge: Recharge }) {
  const { LL } = useI18nContext();
  const money = useMoneyText();
  return (
    <section className="summary-card" data-testid="recharge-card" data-order={recharge.orderNo}>
      <div className="record-head">
        <strong className="num">{money(recharge.amount, 'CNY')}</strong>
        <RechargeStatusTag status={recharge.status} />
      </div>
      <InfoRow label={LL.wallet.orderNo()} testId="order-no">
        <span className="num">{recharge.orderNo}</span>
      </InfoRow>
      <InfoRow label={LL.wallet.channel()}>{recharge.channel}</InfoRow>
      <InfoRow label={LL.wallet.time()}>
        <span className="num">{formatDateTime(recharge.createdAt)}</span>
      </InfoRow>
      {recharge.failReason && <InfoRow label={LL.wallet.reason()}>{recharge.failReason}</InfoRow>}
    </section>
  );
}

/** /rechargelist: every deposit, newest first. */
export function RechargeRecordsScreen() {
  const { LL } = useI18nContext();
  const pages = useStationPages('GET /user/recharge/list.do', { pageSize: 20 });
  return (
    <div className="wallet-screen">
      <PagedList pages={pages} emptyText={LL.wallet.noDeposits()} testId="recharge-list">
        {(recharge) => (
          <li key={recharge.id} className="record" data-testid="recharge-row">
            <Link to="/zf" search={{ id: recharge.id }} className="record-link">
              <RechargeRow recharge={recharge} />
            </Link>
          </li>
        )}
      </PagedList>
    </div>
  );
}

function RechargeRow({ recharge }: { recharge: Recharge }) {
  const money = useMoneyText();
  return (
    <>
      <div className="record-head">
        <strong className="num">{money(recharge.amount, 'CNY')}</strong>
        <RechargeStatusTag status={recharge.status} />
      </div>
      <div className="record-meta">
        <span className="num">{recharge.orderNo}</span>
        <span className="num">{formatDateTime(recharge.createdAt)}</span>
      </div>
      <p className="muted small">{recharge.channel}</p>
    </>
  );
}

/** /btc: the crypto deposit channel — simulated like the others when the station offers one. */
export function CryptoDepositScreen() {
  const { LL } = useI18nContext();
  const channels = useStationQuery('GET /api/site/getPayInfo.do', {});
  if (channels.loading) return <Loading />;
  if (!channels.data) {
    return channels.error ? <ErrorState error={channels.error} onRetry={channels.reload} /> : <Loading />;
  }
  const crypto = channels.data.find(isCryptoChannel);
  if (!crypto) {
    return (
      <div className="wallet-screen" data-testid="crypto-not-offered">
        <Empty text={LL.wallet.cryptoNotOffered()} />
        <Link to="/recharge" className="button secondary block">
          {LL.titles.recharge()}
        </Link>
      </div>
    );
  }
  return (
    <div className="wallet-screen">
      <p className="play-money-note">{LL.wallet.playMoneyNote()}</p>
      <section className="summary-card">
        <InfoRow label={LL.wallet.channel()}>{crypto.name}</InfoRow>
        {crypto.account && (
          <InfoRow label={LL.wallet.payeeAccount()}>
            <span className="num">{crypto.account}</span>
          </InfoRow>
        )}
      </section>
      <Link to="/recharge" search={{ channelId: crypto.id }} className="button primary block">
        {LL.titles.recharge()}
      </Link>
    </div>
  );
}
