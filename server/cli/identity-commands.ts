/**
 * The operator's identity commands: list users, decide KYC, grant and revoke permissions, allow a bank
 * change, read the audit log, show and change the site settings. Every change needs a reason and is written
 * to the audit table with its time and the operator's name.
 */
import { decideKycByOperator, isPermission, PERMISSIONS, setPermission } from '../identity';
import { SITE_SETTING_KEYS, isSiteSettingKey, setSiteSetting, siteSettings } from '../content';
import { idOf, limitOf, reasonOf, timeText, UsageError, type OperatorCommand } from './command';

const KYC_STATES = ['none', 'pending', 'passed', 'failed'] as const;

const users: OperatorCommand = {
  name: 'users',
  usage: `[--kyc ${KYC_STATES.join('|')}] [--phone 11-digits] [--limit n]`,
  summary: 'list users with KYC state and permissions',
  options: ['kyc', 'phone', 'limit'],
  positionals: 0,
  async run({ station, print }, { options }) {
    const db = station.db;
    let query = db
      .selectFrom('users')
      .select(['id', 'phone', 'real_name', 'kyc_status', 'kyc_fail_reason', 'created_at'])
      .orderBy('id')
      .limit(limitOf(options, 100));
    if (options.kyc !== undefined) {
      const kyc = KYC_STATES.find((state) => state === options.kyc);
      if (!kyc) throw new UsageError(`--kyc ${KYC_STATES.join('|')}`);
      query = query.where('kyc_status', '=', kyc);
    }
    if (options.phone !== undefined) query = query.where('phone', '=', options.phone);
    const rows = await query.execute();
    const grants = rows.length
      ? await db
          .selectFrom('user_permissions')
          .select(['user_id', 'permission'])
          .where(
            'user_id',
            'in',
            rows.map((u) => u.id),
          )
          .execute()
      : [];
    print(`${rows.length} user(s)`);
    for (const u of rows) {
      const perms = grants.filter((g) => g.user_id === u.id).map((g) => g.permission);
      print(
        [
          `#${u.id}`,
          u.phone,
          `kyc=${u.kyc_status}`,
          u.real_name ?? '-',
          `permissions=${perms.join(',') || '-'}`,
          `since=${timeText(u.created_at)}`,
          u.kyc_fail_reason ? `reason=${u.kyc_fail_reason}` : '',
        ]
          .filter(Boolean)
          .join('  '),
      );
    }
  },
};

const kyc: OperatorCommand = {
  name: 'kyc',
  usage: '<userId> pass|fail --reason "…"',
  summary: 'decide a pending KYC submission (fail: the reason is shown to the user)',
  options: ['reason'],
  positionals: 2,
  async run({ station, print, actor }, { positionals, options }) {
    const userId = idOf(positionals[0], 'user id');
    const verdict = positionals[1];
    if (verdict !== 'pass' && verdict !== 'fail') throw new UsageError('kyc <userId> pass|fail --reason "…"');
    const reason = reasonOf(options);
    await decideKycByOperator(
      station,
      userId,
      verdict === 'pass' ? { pass: true } : { pass: false, reason },
      actor,
      reason,
    );
    print(`kyc: user ${userId} ${verdict === 'pass' ? 'passed' : 'failed'} (audited)`);
  },
};

/** grant, revoke and allow-bank-change: one permission of one user, set or removed. */
function permissionCommand(name: 'grant' | 'revoke' | 'allow-bank-change'): OperatorCommand {
  const byName = name !== 'allow-bank-change';
  return {
    name,
    usage: byName ? '<userId> <permission> --reason "…"' : '<userId> --reason "…"',
    summary: byName
      ? `${name === 'grant' ? 'give' : 'take back'} a permission: ${PERMISSIONS.join(', ')}`
      : 'let the user change the bank card once',
    options: ['reason'],
    positionals: byName ? 2 : 1,
    async run({ station, print, actor }, { positionals, options }) {
      const userId = idOf(positionals[0], 'user id');
      const permission = byName ? (positionals[1] ?? '') : 'bank_change';
      if (!isPermission(permission))
        throw new UsageError(`unknown permission "${permission}"; one of ${PERMISSIONS.join(', ')}`);
      const reason = reasonOf(options);
      await setPermission(station, userId, permission, name !== 'revoke', actor, reason);
      print(`${name}: user ${userId} ${name === 'revoke' ? 'no longer has' : 'has'} ${permission} (audited)`);
    },
  };
}

const audit: OperatorCommand = {
  name: 'audit',
  usage: '[--user userId] [--limit n]',
  summary: 'the audit log, newest first',
  options: ['user', 'limit'],
  positionals: 0,
  async run({ station, print }, { options }) {
    let query = station.db
      .selectFrom('audit_log')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(limitOf(options, 50));
    if (options.user !== undefined) query = query.where('user_id', '=', idOf(options.user, 'user id'));
    const rows = await query.execute();
    print(`${rows.length} audit entr${rows.length === 1 ? 'y' : 'ies'}`);
    for (const r of rows) {
      print(
        `${timeText(r.time)}  ${r.actor}  ${r.action}  user=${r.user_id ?? '-'}  ${r.detail}  reason=${r.reason}`,
      );
    }
  },
};

const showSiteSettings: OperatorCommand = {
  name: 'site-settings',
  usage: '',
  summary: 'show the site settings',
  options: [],
  positionals: 0,
  async run({ station, print }) {
    const all = await siteSettings(station);
    for (const key of SITE_SETTING_KEYS) print(`${key} = ${JSON.stringify(all[key])}`);
  },
};

const setSite: OperatorCommand = {
  name: 'site-set',
  usage: `<key> '<json>' --reason "…"`,
  summary: `change one site setting (keys: ${SITE_SETTING_KEYS.join(', ')})`,
  options: ['reason'],
  positionals: 2,
  async run({ station, print, actor }, { positionals, options }) {
    const key = positionals[0] ?? '';
    if (!isSiteSettingKey(key))
      throw new UsageError(`unknown site setting "${key}"; one of ${SITE_SETTING_KEYS.join(', ')}`);
    let value: unknown;
    try {
      value = JSON.parse(positionals[1] ?? '');
    } catch {
      throw new UsageError(`site-set ${key} needs a JSON value`);
    }
    const reason = reasonOf(options);
    await setSiteSetting(station, key, value, actor, reason);
    print(`site-set: ${key} changed (audited)`);
  },
};

export const IDENTITY_COMMANDS: readonly OperatorCommand[] = [
  users,
  kyc,
  permissionCommand('grant'),
  permissionCommand('revoke'),
  permissionCommand('allow-bank-change'),
  audit,
  showSiteSettings,
  setSite,
];
