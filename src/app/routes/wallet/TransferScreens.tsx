/**
 * Transfers between the CNY accounts (spec §2 /transfer, /transfers, /transferRecord): main ↔ index ↔
 * newstock, instant; the records are the transfer-out entries of the ledger.
 */
import { useState } from 'react';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { AccountType, LedgerEntry } from '../../../shared/api/types';
import type { TransferAccount } from '../../../shared/api/calls';
import { formatDateTime } from '../../../shared/format';
import { checkMoneyAmount } from '../../../shared/validation';
import { useStationMutation, useStationPages } from '../../api/station-query';
import { ConfirmSheet } from '../../components/ConfirmSheet';
import { FormField } from '../../components/FormField';
import { FormSubmit } from '../../components/FormSubmit';
import { LoggedOutPrompt } from '../../components/LoggedOutPrompt';
import { ErrorState, Loading } from '../../components/StatusViews';
import { showAlert } from '../../state/alert';
import { validationMessage } from '../../forms/form-errors';
import { useForm } from '../../forms/use-form';
import {
  cleanAmountInput,
  InfoRow,
  PagedList,
  useFreshUser,
  useMoneyText,
} from '../../components/record-parts';
import '../../components/wallet.css';
import { useLoggedIn } from '../../state/use-logged-in';

export const TRANSFER_ACCOUNTS: readonly TransferAccount[] = ['main', 'index', 'newstock'];

/** /transfer and /transfers. */
export function TransferScreen() {
  const { LL } = useI18nContext();
  const loggedIn = useLoggedIn();
  if (!loggedIn) return <LoggedOutPrompt title={LL.user.loggedOutTitle()} text={LL.loginPrompt.text()} />;
  return <TransferForm />;
}

function TransferForm() {
  const { LL } = useI18nContext();
  const money = useMoneyText();
  const { user, loading, error, reload } = useFreshUser();
  // Its requestId, pending state, and the accounts and fund flow it refreshes: the station mutation's.
  const transfer = useStationMutation('POST /user/transAmt.do');
  const [from, setFrom] = useState<TransferAccount>('main');
  const [to, setTo] = useState<TransferAccount>('index');
  // The transfer as it was reviewed: what the sheet shows is what is sent.
  const [reviewing, setReviewing] = useState<{
    amount: number;
    from: TransferAccount;
    to: TransferAccount;
  } | null>(null);
  const available = (type: AccountType) => user?.accounts.find((a) => a.type === type)?.available ?? 0;
  const form = useForm<'amount'>({
    initial: { amount: '' },
    validate: (values) => ({
      amount:
        validationMessage(LL, checkMoneyAmount(values.amount.trim())) ??
        (Number(values.amount) > available(from) ? LL.wallet.insufficient() : null),
    }),
    sending: transfer.isPending,
  });

  if (!user)
    return loading ? <Loading /> : error ? <ErrorState error={error} onRetry={reload} /> : <Loading />;

  const pickFrom = (value: TransferAccount) => {
    setFrom(value);
    if (value === to) setTo(TRANSFER_ACCOUNTS.find((a) => a !== value) ?? 'main');
  };
  const pickTo = (value: TransferAccount) => {
    setTo(value);
    if (value === from) setFrom(TRANSFER_ACCOUNTS.find((a) => a !== value) ?? 'main');
  };

  const onSubmit = form.handleSubmit((values) => setReviewing({ amount: Number(values.amount), from, to }));

  const send = (move: { amount: number; from: TransferAccount; to: TransferAccount }) => {
    transfer.mutate(
      { amount: move.amount, from: move.from, to: move.to },
      {
        onSuccess: () => {
          form.reset();
          setReviewing(null);
          showAlert(LL.wallet.transferDone(), 'success');
        },
        onError: (apiError) => {
          setReviewing(null);
          form.showRefusal(apiError);
        },
      },
    );
  };

  const accountSelect = (id: string, value: TransferAccount, onChange: (v: TransferAccount) => void) => (
    <select
      id={id}
      data-testid={id}
      value={value}
      onChange={(event) => onChange(event.target.value as TransferAccount)}
    >
      {TRANSFER_ACCOUNTS.map((type) => (
        <option key={type} value={type}>
          {LL.user.accountType[type]()}
        </option>
      ))}
    </select>
  );

  return (
    <form className="wallet-screen wallet-form" onSubmit={onSubmit} noValidate>
      <div className="transfer-pair">
        <div className="field">
          <label htmlFor="transfer-from">{LL.wallet.from()}</label>
          {accountSelect('transfer-from', from, pickFrom)}
          <p className="muted small num" data-testid="from-available">
            {LL.user.available()} {money(available(from), 'CNY')}
          </p>
        </div>
        <button
          type="button"
          className="icon-button swap"
          aria-label={LL.wallet.swap()}
          data-testid="transfer-swap"
          onClick={() => {
            setFrom(to);
            setTo(from);
          }}
        >
          ⇄
        </button>
        <div className="field">
          <label htmlFor="transfer-to">{LL.wallet.to()}</label>
          {accountSelect('transfer-to', to, pickTo)}
          <p className="muted small num">
            {LL.user.available()} {money(available(to), 'CNY')}
          </p>
        </div>
      </div>
      <FormField
        label={LL.wallet.amount()}
        name="amount"
        inputMode="decimal"
        autoComplete="off"
        value={form.values.amount}
        error={form.errors.amount}
        onChange={(event) => form.setValue('amount', cleanAmountInput(event.target.value))}
        addon={
          <button
            type="button"
            className="button ghost small"
            onClick={() => form.setValue('amount', String(available(from)))}
          >
            {LL.wallet.all()}
          </button>
        }
      />
      <FormSubmit
        formError={form.formError}
        busy={form.busy}
        label={LL.wallet.confirmTransfer()}
        testId="transfer-submit"
      />
      {reviewing && (
        <ConfirmSheet
          testId="transfer-sheet"
          title={LL.wallet.transferConfirmTitle()}
          rows={[
            {
              label: LL.buy.transferFrom({ account: LL.user.accountType[reviewing.from]() }),
              value: money(reviewing.amount, 'CNY'),
            },
          ]}
          arrives={{
            label: LL.buy.transferArrives({ account: LL.user.accountType[reviewing.to]() }),
            value: money(reviewing.amount, 'CNY'),
            testId: 'transfer-arrives',
          }}
          confirmLabel={LL.wallet.confirmTransfer()}
          busy={form.busy}
          onConfirm={() => send(reviewing)}
          onClose={() => setReviewing(null)}
        />
      )}
    </form>
  );
}

/** A transfer-out entry names the receiving account in its note's parameters (noteTransferTo). */
export function transferTarget(entry: Pick<LedgerEntry, 'noteKey' | 'noteParams'>): AccountType | null {
  const account = entry.noteKey === 'noteTransferTo' ? entry.noteParams?.account : undefined;
  return typeof account === 'string' && ACCOUNT_TYPES.includes(account as AccountType)
    ? (account as AccountType)
    : null;
}

const ACCOUNT_TYPES: readonly string[] = ['main', 'index', 'newstock', 'hk', 'us'];

/** /transferRecord: every transfer, newest first. */
export function TransferRecordsScreen() {
  const { LL } = useI18nContext();
  const money = useMoneyText();
  const pages = useStationPages('GET /user/cash/list.do', { pageSize: 20, type: 'transfer_out' });
  return (
    <div className="wallet-screen">
      <PagedList pages={pages} emptyText={LL.wallet.noTransfers()} testId="transfer-list">
        {(entry) => {
          const target = transferTarget(entry);
          return (
            <li key={entry.id} className="record" data-testid="transfer-row">
              <div className="record-head">
                <strong>
                  {LL.user.accountType[entry.account]()} → {target ? LL.user.accountType[target]() : '—'}
                </strong>
                <span className="num">{money(Math.abs(entry.amount), 'CNY')}</span>
              </div>
              <InfoRow label={LL.wallet.time()}>
                <span className="num">{formatDateTime(entry.time)}</span>
              </InfoRow>
            </li>
          );
        }}
      </PagedList>
    </div>
  );
}
