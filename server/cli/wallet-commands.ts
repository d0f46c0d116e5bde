/**
 * The operator's wallet commands: list deposits and withdrawals and decide pending ones before the
 * station's pay channel does. Every decision needs a reason and is written to the audit log with the
 * operator's name; a failed deposit's or a rejected withdrawal's reason is shown to the user. A decision is
 * a conditional update from pending, so it never races the station (or a user's cancel) into deciding
 * twice: the loser is told ALREADY_DONE.
 */
import { decideDepositByOperator, moneyText, decideWithdrawalByOperator } from '../wallet';
import {
  idOf,
  limitOf,
  reasonOf,
  timeText,
  UsageError,
  type CommandInput,
  type OperatorCommand,
} from './command';

const DEPOSIT_STATES = ['pending', 'success', 'failed', 'cancelled'] as const;
const WITHDRAWAL_STATES = ['pending', 'paid', 'rejected', 'cancelled'] as const;

function statusOf<T extends string>(options: CommandInput['options'], allowed: readonly T[]): T | undefined {
  if (options.status === undefined) return undefined;
  const status = allowed.find((s) => s === options.status);
  if (!status) throw new UsageError(`--status ${allowed.join('|')}`);
  return status;
}

const deposits: OperatorCommand = {
  name: 'deposits',
  usage: `[--status ${DEPOSIT_STATES.join('|')}] [--user userId] [--limit n]`,
  summary: 'list deposits, newest first',
  options: ['status', 'user', 'limit'],
  positionals: 0,
  async run({ station, print }, { options }) {
    const status = statusOf(options, DEPOSIT_STATES);
    const rows = await station.db
      .selectFrom('recharges')
      .selectAll()
      .$if(status !== undefined, (q) => q.where('status', '=', status!))
      .$if(options.user !== undefined, (q) => q.where('user_id', '=', idOf(options.user, 'user id')))
      .orderBy('id', 'desc')
      .limit(limitOf(options, 50))
      .execute();
    print(`${rows.length} deposit(s)`);
    for (const r of rows) {
      print(
        `#${r.id}  ${r.order_no}  user=${r.user_id}  ${moneyText(r.amount)}  channel=${r.channel_id}  ${r.status}  at=${timeText(r.created_at)}  decided=${r.decided_by ?? '-'} ${timeText(r.decided_at)}`,
      );
    }
  },
};

const deposit: OperatorCommand = {
  name: 'deposit',
  usage: '<id> success|fail|cancel --reason "…"',
  summary: 'decide a pending deposit (success credits the main account)',
  options: ['reason'],
  positionals: 2,
  async run({ station, print, actor }, { positionals, options }) {
    const id = idOf(positionals[0], 'deposit id');
    const verdict = positionals[1];
    if (verdict !== 'success' && verdict !== 'fail' && verdict !== 'cancel') {
      throw new UsageError('deposit <id> success|fail|cancel --reason "…"');
    }
    const reason = reasonOf(options, 'decision');
    const row = await decideDepositByOperator(
      station,
      id,
      verdict === 'success'
        ? { status: 'success' }
        : { status: verdict === 'fail' ? 'failed' : 'cancelled', reason },
      actor,
      reason,
    );
    print(`deposit: #${row.id} ${row.order_no} ${row.status} (audited)`);
  },
};

const withdrawals: OperatorCommand = {
  name: 'withdrawals',
  usage: `[--status ${WITHDRAWAL_STATES.join('|')}] [--user userId] [--limit n]`,
  summary: 'list withdrawals, newest first',
  options: ['status', 'user', 'limit'],
  positionals: 0,
  async run({ station, print }, { options }) {
    const status = statusOf(options, WITHDRAWAL_STATES);
    const rows = await station.db
      .selectFrom('withdrawals')
      .selectAll()
      .$if(status !== undefined, (q) => q.where('status', '=', status!))
      .$if(options.user !== undefined, (q) => q.where('user_id', '=', idOf(options.user, 'user id')))
      .orderBy('id', 'desc')
      .limit(limitOf(options, 50))
      .execute();
    print(`${rows.length} withdrawal(s)`);
    for (const r of rows) {
      print(
        `#${r.id}  ${r.order_no}  user=${r.user_id}  ${moneyText(r.amount)} (fee ${moneyText(r.fee)})  ${r.bank_name} ${r.card_no_masked}  ${r.status}  at=${timeText(r.created_at)}  decided=${r.decided_by ?? '-'} ${timeText(r.decided_at)}`,
      );
    }
  },
};

const withdrawal: OperatorCommand = {
  name: 'withdrawal',
  usage: '<id> pay|reject --reason "…"',
  summary: 'decide a pending withdrawal (reject: the amount goes back, the reason is shown)',
  options: ['reason'],
  positionals: 2,
  async run({ station, print, actor }, { positionals, options }) {
    const id = idOf(positionals[0], 'withdrawal id');
    const verdict = positionals[1];
    if (verdict !== 'pay' && verdict !== 'reject')
      throw new UsageError('withdrawal <id> pay|reject --reason "…"');
    const reason = reasonOf(options, 'decision');
    const row = await decideWithdrawalByOperator(
      station,
      id,
      verdict === 'pay' ? { status: 'paid' } : { status: 'rejected', reason },
      actor,
      reason,
    );
    print(`withdrawal: #${row.id} ${row.order_no} ${row.status} (audited)`);
  },
};

export const WALLET_COMMANDS: readonly OperatorCommand[] = [deposits, deposit, withdrawals, withdrawal];
