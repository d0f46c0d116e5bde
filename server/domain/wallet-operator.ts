/**
 * The operator's wallet commands (`npm run station -- <command>`): list deposits and withdrawals and decide
 * pending ones before the station's pay channel does. Every decision needs a reason and is written to the
 * audit log with the operator's name; a failed deposit's or a rejected withdrawal's reason is shown to the
 * user. A decision is a conditional update from pending, so it never races the station (or a user's
 * cancel) into deciding twice: the loser is told ALREADY_DONE.
 */
import type { Station } from '../platform/station';
import { decideDepositByOperator } from '../wallet/deposit';
import { UsageError } from './operator';
import { moneyText } from '../wallet/wallet';
import { decideWithdrawalByOperator } from '../wallet/withdrawal';

export const WALLET_USAGE = `Wallet commands:
  deposits [--status pending|success|failed|cancelled] [--user userId] [--limit n]
                                  list deposits, newest first
  deposit <id> success|fail|cancel --reason "…"
                                  decide a pending deposit (success credits the main account)
  withdrawals [--status pending|paid|rejected|cancelled] [--user userId] [--limit n]
                                  list withdrawals, newest first
  withdrawal <id> pay|reject --reason "…"
                                  decide a pending withdrawal (reject: the amount goes back, the reason is shown)`;

function parse(args: string[]): { positional: string[]; options: Record<string, string> } {
  const positional: string[] = [];
  const options: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg.startsWith('--')) {
      const value = args[i + 1];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`${arg} needs a value`);
      options[arg.slice(2)] = value;
      i += 1;
    } else positional.push(arg);
  }
  return { positional, options };
}

function idOf(raw: string | undefined, what: string): number {
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id < 1) throw new UsageError(`not a ${what}: ${raw ?? '(missing)'}`);
  return id;
}

function reasonOf(options: Record<string, string>): string {
  const reason = (options.reason ?? '').trim();
  if (reason === '')
    throw new UsageError('--reason "…" is required: every decision is audited with its reason');
  if (reason.length > 500) throw new UsageError('--reason is at most 500 characters');
  return reason;
}

function limitOf(options: Record<string, string>): number {
  if (options.limit === undefined) return 50;
  const n = Number(options.limit);
  if (!Number.isInteger(n) || n < 1 || n > 10_000)
    throw new UsageError('--limit is a whole number from 1 to 10000');
  return n;
}

function statusOf<T extends string>(options: Record<string, string>, allowed: readonly T[]): T | undefined {
  if (options.status === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(options.status)) {
    throw new UsageError(`--status ${allowed.join('|')}`);
  }
  return options.status as T;
}

const time = (t: number | null) => (t === null ? '-' : new Date(t).toISOString().replace('.000Z', 'Z'));

/** Runs one wallet command; false when `command` is not one of these. */
export async function runWalletCommand(
  station: Station,
  command: string,
  args: string[],
  print: (line: string) => void,
  defaultActor: string,
): Promise<boolean> {
  const { positional, options } = parse(args);
  const actor = (options.by ?? defaultActor).trim().slice(0, 64) || 'operator';
  switch (command) {
    case 'deposits': {
      const status = statusOf(options, ['pending', 'success', 'failed', 'cancelled'] as const);
      const rows = await station.db
        .selectFrom('recharges')
        .selectAll()
        .$if(status !== undefined, (q) => q.where('status', '=', status!))
        .$if(options.user !== undefined, (q) => q.where('user_id', '=', idOf(options.user, 'user id')))
        .orderBy('id', 'desc')
        .limit(limitOf(options))
        .execute();
      print(`${rows.length} deposit(s)`);
      for (const r of rows) {
        print(
          `#${r.id}  ${r.order_no}  user=${r.user_id}  ${moneyText(r.amount)}  channel=${r.channel_id}  ${r.status}  at=${time(r.created_at)}  decided=${r.decided_by ?? '-'} ${time(r.decided_at)}`,
        );
      }
      return true;
    }
    case 'deposit': {
      const id = idOf(positional[0], 'deposit id');
      const verdict = positional[1];
      if (verdict !== 'success' && verdict !== 'fail' && verdict !== 'cancel') {
        throw new UsageError('deposit <id> success|fail|cancel --reason "…"');
      }
      const reason = reasonOf(options);
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
      return true;
    }
    case 'withdrawals': {
      const status = statusOf(options, ['pending', 'paid', 'rejected', 'cancelled'] as const);
      const rows = await station.db
        .selectFrom('withdrawals')
        .selectAll()
        .$if(status !== undefined, (q) => q.where('status', '=', status!))
        .$if(options.user !== undefined, (q) => q.where('user_id', '=', idOf(options.user, 'user id')))
        .orderBy('id', 'desc')
        .limit(limitOf(options))
        .execute();
      print(`${rows.length} withdrawal(s)`);
      for (const r of rows) {
        print(
          `#${r.id}  ${r.order_no}  user=${r.user_id}  ${moneyText(r.amount)} (fee ${moneyText(r.fee)})  ${r.bank_name} ${r.card_no_masked}  ${r.status}  at=${time(r.created_at)}  decided=${r.decided_by ?? '-'} ${time(r.decided_at)}`,
        );
      }
      return true;
    }
    case 'withdrawal': {
      const id = idOf(positional[0], 'withdrawal id');
      const verdict = positional[1];
      if (verdict !== 'pay' && verdict !== 'reject')
        throw new UsageError('withdrawal <id> pay|reject --reason "…"');
      const reason = reasonOf(options);
      const row = await decideWithdrawalByOperator(
        station,
        id,
        verdict === 'pay' ? { status: 'paid' } : { status: 'rejected', reason },
        actor,
        reason,
      );
      print(`withdrawal: #${row.id} ${row.order_no} ${row.status} (audited)`);
      return true;
    }
    default:
      return false;
  }
}
