/**
 * The operator's identity commands (`npm run station -- <command>`): list users, decide KYC, grant and
 * revoke permissions, allow a bank change, read the audit log. Every change needs a reason and is
 * written to the audit table with its time and the operator's name.
 */
import { AppError } from '../errors';
import type { Station } from './context';
import { decideKycByOperator } from './kyc';
import { isPermission, PERMISSIONS, setPermission } from './permissions';
import { SITE_SETTING_KEYS, isSiteSettingKey, setSiteSetting, siteSettings } from './site-settings';

export const OPERATOR_USAGE = `Identity commands:
  users [--kyc none|pending|passed|failed] [--phone 11-digits] [--limit n]
                                  list users with KYC state and permissions
  kyc <userId> pass|fail --reason "…"
                                  decide a pending KYC submission (fail: the reason is shown to the user)
  grant <userId> <permission> --reason "…"
  revoke <userId> <permission> --reason "…"
                                  permissions: ${PERMISSIONS.join(', ')}
  allow-bank-change <userId> --reason "…"
                                  let the user change the bank card once
  audit [--user userId] [--limit n]
                                  the audit log, newest first
  site-settings                   show the site settings
  site-set <key> '<json>' --reason "…"
                                  change one site setting (keys: ${SITE_SETTING_KEYS.join(', ')})
Options: --by <name> names the operator in the audit log (default: $USER).`;

export class UsageError extends Error {
  override name = 'UsageError';
}

interface Parsed {
  positional: string[];
  options: Record<string, string>;
}

function parse(args: string[]): Parsed {
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

function userIdOf(raw: string | undefined): number {
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id < 1) throw new UsageError(`not a user id: ${raw ?? '(missing)'}`);
  return id;
}

function reasonOf(options: Record<string, string>): string {
  const reason = (options.reason ?? '').trim();
  if (reason === '')
    throw new UsageError('--reason "…" is required: every change is audited with its reason');
  if (reason.length > 500) throw new UsageError('--reason is at most 500 characters');
  return reason;
}

function limitOf(options: Record<string, string>, fallback: number): number {
  if (options.limit === undefined) return fallback;
  const n = Number(options.limit);
  if (!Number.isInteger(n) || n < 1 || n > 10_000)
    throw new UsageError('--limit is a whole number from 1 to 10000');
  return n;
}

const time = (t: number | null) => (t === null ? '-' : new Date(t).toISOString().replace('.000Z', 'Z'));

/**
 * Runs one identity command; prints with `print`. Returns false when `command` is not one of these.
 * Throws UsageError for bad arguments and AppError (e.g. NOT_FOUND) for refused actions.
 */
export async function runOperatorCommand(
  station: Station,
  command: string,
  args: string[],
  print: (line: string) => void,
  defaultActor: string,
): Promise<boolean> {
  const db = station.db;
  const { positional, options } = parse(args);
  const actor = (options.by ?? defaultActor).trim().slice(0, 64) || 'operator';
  switch (command) {
    case 'users': {
      let query = db
        .selectFrom('users')
        .select(['id', 'phone', 'real_name', 'kyc_status', 'kyc_fail_reason', 'created_at'])
        .orderBy('id')
        .limit(limitOf(options, 100));
      if (options.kyc !== undefined) {
        if (!['none', 'pending', 'passed', 'failed'].includes(options.kyc))
          throw new UsageError('--kyc none|pending|passed|failed');
        query = query.where('kyc_status', '=', options.kyc as 'none');
      }
      if (options.phone !== undefined) query = query.where('phone', '=', options.phone);
      const users = await query.execute();
      const grants = users.length
        ? await db
            .selectFrom('user_permissions')
            .select(['user_id', 'permission'])
            .where(
              'user_id',
              'in',
              users.map((u) => u.id),
            )
            .execute()
        : [];
      print(`${users.length} user(s)`);
      for (const u of users) {
        const perms = grants.filter((g) => g.user_id === u.id).map((g) => g.permission);
        print(
          [
            `#${u.id}`,
            u.phone,
            `kyc=${u.kyc_status}`,
            u.real_name ?? '-',
            `permissions=${perms.join(',') || '-'}`,
            `since=${time(u.created_at)}`,
            u.kyc_fail_reason ? `reason=${u.kyc_fail_reason}` : '',
          ]
            .filter(Boolean)
            .join('  '),
        );
      }
      return true;
    }
    case 'kyc': {
      const userId = userIdOf(positional[0]);
      const verdict = positional[1];
      if (verdict !== 'pass' && verdict !== 'fail')
        throw new UsageError('kyc <userId> pass|fail --reason "…"');
      const reason = reasonOf(options);
      await decideKycByOperator(
        station,
        userId,
        verdict === 'pass' ? { pass: true } : { pass: false, reason },
        actor,
        reason,
      );
      print(`kyc: user ${userId} ${verdict === 'pass' ? 'passed' : 'failed'} (audited)`);
      return true;
    }
    case 'grant':
    case 'revoke':
    case 'allow-bank-change': {
      const userId = userIdOf(positional[0]);
      const permission = command === 'allow-bank-change' ? 'bank_change' : (positional[1] ?? '');
      if (!isPermission(permission))
        throw new UsageError(`unknown permission "${permission}"; one of ${PERMISSIONS.join(', ')}`);
      const reason = reasonOf(options);
      await setPermission(station, userId, permission, command !== 'revoke', actor, reason);
      print(
        `${command}: user ${userId} ${command === 'revoke' ? 'no longer has' : 'has'} ${permission} (audited)`,
      );
      return true;
    }
    case 'audit': {
      let query = db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(limitOf(options, 50));
      if (options.user !== undefined) query = query.where('user_id', '=', userIdOf(options.user));
      const rows = await query.execute();
      print(`${rows.length} audit entr${rows.length === 1 ? 'y' : 'ies'}`);
      for (const r of rows) {
        print(
          `${time(r.time)}  ${r.actor}  ${r.action}  user=${r.user_id ?? '-'}  ${r.detail}  reason=${r.reason}`,
        );
      }
      return true;
    }
    case 'site-settings': {
      const all = await siteSettings(station);
      for (const key of SITE_SETTING_KEYS) print(`${key} = ${JSON.stringify(all[key])}`);
      return true;
    }
    case 'site-set': {
      const key = positional[0] ?? '';
      if (!isSiteSettingKey(key))
        throw new UsageError(`unknown site setting "${key}"; one of ${SITE_SETTING_KEYS.join(', ')}`);
      let value: unknown;
      try {
        value = JSON.parse(positional[1] ?? '');
      } catch {
        throw new UsageError(`site-set ${key} needs a JSON value`);
      }
      const reason = reasonOf(options);
      await setSiteSetting(station, key, value, actor, reason);
      print(`site-set: ${key} changed (audited)`);
      return true;
    }
    default:
      return false;
  }
}

export function describeFailure(error: unknown): string | null {
  if (error instanceof UsageError) return error.message;
  if (error instanceof AppError) {
    if (error.code === 'NOT_FOUND') return 'not found (no such user, or nothing pending)';
    const detail = error.params?.detail ?? (error.fields ? JSON.stringify(error.fields) : '');
    return `refused: ${error.code}${detail ? ` (${detail})` : ''}`;
  }
  return null;
}
