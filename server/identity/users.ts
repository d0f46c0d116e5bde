/** Users: SMS codes, registration with paper accounts, login, sessions and the user's view of itself. */
import { randomInt } from 'node:crypto';
import { toMinor } from '../../src/shared/money';
import type { AccountType, User } from '../../src/shared/api/types';
import {
  checkNewPasswordConfirm,
  checkPassword,
  checkPhone,
  checkSmsCode,
  checkWithdrawPassword,
  maskPhone,
  normalizePassword,
} from '../../src/shared/validation';
import {
  AppError,
  assertFields,
  isUniqueViolation,
  sessionCacheOf,
  clearLoginFailures,
  recordLoginFailure,
  reserveLoginAttempt,
  unlockLogin,
  type UserRow,
  type Station,
  type LoginGuardSettings,
  stationText,
} from '../platform';
import { dummyPasswordHash, hashPassword, verifyPassword } from './credentials';
import { post, postingAgainst, accountsOf } from '../ledger';
import { addressGuardKey, throttleAddress, throttlePhoneCheck } from './address-limits';
import { consumeSmsCode } from './sms-codes';
import { openSession, type SessionInfo } from './sessions';
import { findUserByPhone } from './sms-codes';

export { checkCode, consumeSmsCode, sendSmsCode, type SmsPurpose } from './sms-codes';
export { logout, sessionOf, type SessionInfo } from './sessions';

export const ACCOUNT_TYPES: readonly AccountType[] = ['main', 'index', 'newstock', 'hk', 'us'];
const INVITE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const INVITE_LENGTH = 8;

export async function isRegistered(
  station: Station,
  phone: string,
  ip: string | null = null,
): Promise<boolean> {
  assertFields({ phone: checkPhone(phone) });
  await throttlePhoneCheck(station, phone.trim(), ip);
  return (await findUserByPhone(station, phone.trim())) !== undefined;
}

export interface Registration {
  phone: string;
  password: string;
  code: string;
  inviteCode?: string | undefined;
}

/**
 * Does a new account need an invitation code? With INVITE_CODE=required, yes, except for the first account
 * of a fresh station, which starts the chain of invitations. The app asks through getProductSetting.do.
 */
export async function inviteCodeRequired(station: Station): Promise<boolean> {
  if (station.config.identity.inviteCode !== 'required') return false;
  const anyUser = await station.db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  return anyUser !== undefined;
}

function newInviteCode(): string {
  let code = '';
  for (let i = 0; i < INVITE_LENGTH; i++) code += INVITE_ALPHABET[randomInt(0, INVITE_ALPHABET.length)];
  return code;
}

export async function register(
  station: Station,
  input: Registration,
): Promise<{ token: string; userId: number }> {
  assertFields({
    phone: checkPhone(input.phone),
    password: checkPassword(input.password),
    code: checkSmsCode(input.code),
  });
  const phone = input.phone.trim();
  const password = normalizePassword(input.password);
  if (await findUserByPhone(station, phone)) throw new AppError('PHONE_TAKEN');

  let inviterId: number | null = null;
  const inviteCode = (input.inviteCode ?? '').trim().toUpperCase();
  if (inviteCode === '' && (await inviteCodeRequired(station))) {
    throw new AppError('VALIDATION', { fields: { inviteCode: 'inviteCodeEmpty' } });
  }
  if (inviteCode !== '') {
    const inviter = await station.db
      .selectFrom('users')
      .select('id')
      .where('invite_code', '=', inviteCode)
      .executeTakeFirst();
    if (!inviter) throw new AppError('VALIDATION', { fields: { inviteCode: 'invalid' } });
    inviterId = inviter.id;
  }

  await consumeSmsCode(station, phone, 'reg', input.code.trim());
  const passwordHash = await hashPassword(password);
  const { settings } = station.config;

  for (let attempt = 0; ; attempt++) {
    const myInviteCode = newInviteCode();
    try {
      const userId = await station.db.transaction().execute(async (trx) => {
        const now = station.clock.now();
        const user = await trx
          .insertInto('users')
          .values({
            phone,
            password_hash: passwordHash,
            invite_code: myInviteCode,
            inviter_id: inviterId,
            real_name: null,
            kyc_status: 'none',
            kyc_fail_reason: null,
            withdraw_password_hash: null,
            created_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        for (const type of ACCOUNT_TYPES) {
          const account = await trx
            .insertInto('accounts')
            .values({ user_id: user.id, type, currency: settings.accountCurrency[type], balance: 0 })
            .returning('id')
            .executeTakeFirstOrThrow();
          const opening = toMinor(settings.startingBalances[type]);
          if (opening !== 0) {
            await post(
              trx,
              postingAgainst('paper', {
                accountId: account.id,
                userId: user.id,
                type: 'opening_balance',
                amount: opening,
                time: now,
                note: stationText('noteOpeningBalance'),
              }),
            );
          }
        }
        return user.id;
      });
      return { token: await openSession(station, userId), userId };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Either the phone was registered meanwhile, or the new invite code collided: retry the latter.
      if (await findUserByPhone(station, phone)) throw new AppError('PHONE_TAKEN');
      if (attempt >= 4) throw error;
    }
  }
}

function loginGuard(station: Station): LoginGuardSettings {
  const { identity } = station.config;
  return {
    maxFailures: identity.loginMaxFailures,
    windowMs: identity.loginWindowMinutes * 60_000,
    lockMs: identity.loginLockMinutes * 60_000,
  };
}

function lockedError(msgKey: string, lockedUntil: number, now: number): AppError {
  return new AppError('RATE_LIMITED', {
    msgKey,
    params: { minutes: Math.max(1, Math.ceil((lockedUntil - now) / 60_000)) },
  });
}

/**
 * Checks a secret under a guard: an attempt is reserved first (refused while locked), a wrong secret
 * counts as a failure, a right one clears the failures. `key` names what is guarded (a phone, or the
 * withdrawal password of a user).
 */
export function guardedCheck(
  station: Station,
  key: string,
  lockedMsgKey: string,
  check: () => Promise<boolean>,
  maxFailures?: number,
): Promise<boolean> {
  // One check per key at a time in this process: each reserved attempt is settled (cleared by a right
  // password, counted by a wrong one) before the next is reserved. Otherwise twenty parallel calls with
  // the right password would reserve more attempts than allowed and be told "too many wrong attempts",
  // and parallel guesses would all be tried before the first failure counted.
  const previous = checksInFlight.get(key) ?? Promise.resolve();
  const next = previous.then(() => settleCheck(station, key, lockedMsgKey, check, maxFailures));
  const tail = next.catch(() => undefined);
  checksInFlight.set(key, tail);
  void tail.then(() => {
    if (checksInFlight.get(key) === tail) checksInFlight.delete(key);
  });
  return next;
}

/** Guarded checks going on, by key: the last one's settling. */
const checksInFlight = new Map<string, Promise<unknown>>();

async function settleCheck(
  station: Station,
  key: string,
  lockedMsgKey: string,
  check: () => Promise<boolean>,
  maxFailures: number | undefined,
): Promise<boolean> {
  const db = station.db;
  const guard = { ...loginGuard(station), ...(maxFailures === undefined ? {} : { maxFailures }) };
  const now = station.clock.now();
  const reservation = await reserveLoginAttempt(db, key, now, guard);
  if (!reservation.ok) throw lockedError(lockedMsgKey, reservation.lockedUntil, now);
  const ok = await check();
  if (ok) await clearLoginFailures(db, key, now);
  else await recordLoginFailure(db, key, now, guard);
  return ok;
}

/**
 * BAD_CREDENTIALS whether the phone is unknown or the password wrong, after the same amount of work.
 * Repeated failures lock the phone for a while (RATE_LIMITED, "try again in n minutes"): for the address
 * they came from first (LOGIN_MAX_FAILURES), everywhere only after LOGIN_PHONE_FAILURES from all addresses,
 * so a stranger cannot lock the owner out; and an address tries at most LOGIN_PER_IP_HOURLY logins an hour.
 */
export async function login(
  station: Station,
  input: { phone: string; password: string },
  ip: string | null = null,
): Promise<{ token: string; userId: number }> {
  assertFields({ phone: checkPhone(input.phone), password: checkPassword(input.password) });
  await throttleAddress(station, 'login', ip);
  const phone = input.phone.trim();
  const password = normalizePassword(input.password);
  let user: UserRow | undefined;
  const check = async () => {
    user = await findUserByPhone(station, phone);
    const matches = await verifyPassword(password, user?.password_hash ?? (await dummyPasswordHash()));
    return user !== undefined && matches;
  };
  const phoneWide = () =>
    guardedCheck(station, phone, 'LOGIN_LOCKED', check, station.config.identity.loginPhoneFailures);
  const ok =
    ip === null
      ? await phoneWide()
      : await guardedCheck(station, addressGuardKey(phone, ip), 'LOGIN_LOCKED', phoneWide);
  if (!ok || !user) throw new AppError('BAD_CREDENTIALS');
  return { token: await openSession(station, user.id), userId: user.id };
}

/**
 * Forgotten password: the SMS code sent by sendForgetSms.do, then a new password. Every session of the
 * user ends and the phone's login lock is lifted.
 */
export async function resetPassword(
  station: Station,
  input: { phone: string; code: string; password: string },
): Promise<void> {
  assertFields({
    phone: checkPhone(input.phone),
    code: checkSmsCode(input.code),
    password: checkPassword(input.password),
  });
  const phone = input.phone.trim();
  const user = await findUserByPhone(station, phone);
  if (!user) throw new AppError('BAD_CODE');
  await consumeSmsCode(station, phone, 'forget', input.code.trim());
  const hash = await hashPassword(normalizePassword(input.password));
  await setPasswordEndingSessions(station, user.id, hash);
  await unlockLogin(station.db, phone);
}

/**
 * Change password while logged in: the old password (guarded like a login), the new one, and when given
 * its confirmation ("the new password is inconsistent"). The user's other sessions end.
 */
export async function changePassword(
  station: Station,
  session: SessionInfo,
  input: { oldPassword: string; password: string; confirmPassword?: string | undefined },
): Promise<void> {
  assertFields({
    oldPassword: checkPassword(input.oldPassword),
    password: checkPassword(input.password),
    confirmPassword:
      input.confirmPassword === undefined
        ? null
        : checkNewPasswordConfirm(input.password, input.confirmPassword),
  });
  const user = await station.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', session.userId)
    .executeTakeFirstOrThrow();
  const ok = await guardedCheck(station, user.phone, 'LOGIN_LOCKED', () =>
    verifyPassword(normalizePassword(input.oldPassword), user.password_hash),
  );
  if (!ok) throw new AppError('BAD_CREDENTIALS', { msgKey: 'OLD_PASSWORD_WRONG', httpStatus: 400 });
  const hash = await hashPassword(normalizePassword(input.password));
  await setPasswordEndingSessions(station, user.id, hash, session.sessionId);
}

/**
 * Stores a new password hash and ends the user's sessions (all, or all but `keepSessionId`) in one
 * transaction; the remembered sessions are forgotten before the caller answers, whatever happened (a kept
 * session is simply read again on its next call).
 */
async function setPasswordEndingSessions(
  station: Station,
  userId: number,
  hash: string,
  keepSessionId?: number,
): Promise<void> {
  const now = station.clock.now();
  try {
    await station.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ password_hash: hash }).where('id', '=', userId).execute();
      await trx
        .updateTable('sessions')
        .set({ revoked_at: now })
        .where('user_id', '=', userId)
        .$if(keepSessionId !== undefined, (q) => q.where('id', '!=', keepSessionId!))
        .where('revoked_at', 'is', null)
        .execute();
    });
  } finally {
    sessionCacheOf(station)?.forgetUser(userId);
  }
}

/**
 * Sets the withdrawal password (6 digits), or changes it given the current one. Wrong current passwords
 * are guarded like logins, per user.
 */
export async function setWithdrawPassword(
  station: Station,
  session: SessionInfo,
  input: { withPwd: string; oldWithPwd?: string | undefined },
): Promise<void> {
  assertFields({ withPwd: checkWithdrawPassword(input.withPwd) });
  const user = await station.db
    .selectFrom('users')
    .select(['id', 'withdraw_password_hash'])
    .where('id', '=', session.userId)
    .executeTakeFirstOrThrow();
  const current = user.withdraw_password_hash;
  if (current !== null) {
    const old = (input.oldWithPwd ?? '').trim();
    if (old === '') throw new AppError('VALIDATION', { fields: { oldWithPwd: 'required' } });
    const ok = await guardedCheck(station, `wd:${user.id}`, 'WITHDRAW_PASSWORD_LOCKED', () =>
      verifyPassword(old, current),
    );
    if (!ok) throw new AppError('BAD_WITHDRAW_PASSWORD');
  }
  const hash = await hashPassword(input.withPwd.trim());
  // Only if nobody changed it meanwhile (two racing "set" calls: the second is told it is done).
  const result = await station.db
    .updateTable('users')
    .set({ withdraw_password_hash: hash })
    .where('id', '=', user.id)
    .where((eb) =>
      current === null
        ? eb('withdraw_password_hash', 'is', null)
        : eb('withdraw_password_hash', '=', current),
    )
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new AppError('ALREADY_DONE');
}

/** The user with masked phone and the five accounts valued at current prices. */
export async function userInfo(station: Station, userId: number): Promise<User> {
  const user = await station.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const bankCard = await station.db
    .selectFrom('bank_cards')
    .select('id')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return {
    id: user.id,
    phone: maskPhone(user.phone),
    realName: user.real_name,
    kycStatus: user.kyc_status,
    kycFailReason: user.kyc_fail_reason,
    hasBankCard: bankCard !== undefined,
    hasWithdrawPassword: user.withdraw_password_hash !== null,
    inviteCode: user.invite_code,
    accounts: await accountsOf(station, userId),
  };
}
