/** Users: SMS codes, registration with paper accounts, login, sessions and the user's view of itself. */
import { randomInt } from 'node:crypto';
import { toMinor } from '../../src/shared/money';
import type { AccountType, User } from '../../src/shared/api/types';
import {
  checkPassword,
  checkPhone,
  checkSmsCode,
  maskPhone,
  normalizePassword,
} from '../../src/shared/validation';
import { AppError, assertFields } from '../errors';
import { isUniqueViolation } from '../db/database';
import type { UserRow } from '../db/schema';
import type { Station } from './context';
import {
  dummyPasswordHash,
  hashPassword,
  hashToken,
  newSessionToken,
  sameSecret,
  verifyPassword,
} from './credentials';
import { post } from './ledger';
import { positionPnlMinor, toAccount } from './views';

export const ACCOUNT_TYPES: readonly AccountType[] = ['main', 'index', 'newstock', 'hk', 'us'];
const INVITE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const INVITE_LENGTH = 8;

export type SmsPurpose = 'reg' | 'forget';

async function findUserByPhone(station: Station, phone: string): Promise<UserRow | undefined> {
  return station.db.selectFrom('users').selectAll().where('phone', '=', phone).executeTakeFirst();
}

export async function isRegistered(station: Station, phone: string): Promise<boolean> {
  assertFields({ phone: checkPhone(phone) });
  return (await findUserByPhone(station, phone.trim())) !== undefined;
}

/**
 * Sends a 6-digit code valid for the configured time; one per phone and purpose per resend interval.
 * The demo gateway hands the code back to the app; the console gateway writes it to the log.
 */
export async function sendSmsCode(
  station: Station,
  phoneRaw: string,
  purpose: SmsPurpose,
): Promise<{ ttlSeconds: number; demoCode?: string }> {
  assertFields({ phone: checkPhone(phoneRaw) });
  const phone = phoneRaw.trim();
  const { settings } = station.config;
  const registered = (await findUserByPhone(station, phone)) !== undefined;
  if (purpose === 'reg' && registered) throw new AppError('PHONE_TAKEN');
  const now = station.clock.now();
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await station.db.transaction().execute(async (trx) => {
    const recent = await trx
      .selectFrom('sms_codes')
      .select('id')
      .where('phone', '=', phone)
      .where('purpose', '=', purpose)
      .where('created_at', '>', now - settings.smsResendSeconds * 1000)
      .executeTakeFirst();
    if (recent) throw new AppError('RATE_LIMITED');
    await trx
      .insertInto('sms_codes')
      .values({
        phone,
        purpose,
        code,
        created_at: now,
        expires_at: now + settings.smsCodeTtlSeconds * 1000,
        used_at: null,
        attempts: 0,
      })
      .execute();
  });
  if (station.config.smsGateway === 'console') {
    station.log.info({ sms: { phone: maskPhone(phone), purpose, code } }, `SMS code for ${phone}: ${code}`);
    return { ttlSeconds: settings.smsCodeTtlSeconds };
  }
  return { ttlSeconds: settings.smsCodeTtlSeconds, demoCode: code };
}

/**
 * Checks and uses up the latest code sent to the phone. Wrong guesses count (committed even though the
 * call fails); after too many the code is burnt. BAD_CODE for a wrong or burnt code, CODE_EXPIRED for the
 * right code too late.
 */
export async function consumeSmsCode(
  station: Station,
  phone: string,
  purpose: SmsPurpose,
  given: string,
): Promise<void> {
  const now = station.clock.now();
  const outcome = await station.db.transaction().execute(async (trx) => {
    const latest = await trx
      .selectFrom('sms_codes')
      .selectAll()
      .where('phone', '=', phone)
      .where('purpose', '=', purpose)
      .orderBy('id', 'desc')
      .limit(1)
      .$if(station.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
    if (!latest || latest.used_at !== null || latest.attempts >= station.config.settings.smsMaxAttempts) {
      return 'BAD_CODE' as const;
    }
    if (!sameSecret(latest.code, given)) {
      await trx
        .updateTable('sms_codes')
        .set({ attempts: latest.attempts + 1 })
        .where('id', '=', latest.id)
        .execute();
      return 'BAD_CODE' as const;
    }
    if (now > latest.expires_at) return 'CODE_EXPIRED' as const;
    await trx.updateTable('sms_codes').set({ used_at: now }).where('id', '=', latest.id).execute();
    return 'OK' as const;
  });
  if (outcome !== 'OK') throw new AppError(outcome);
}

export interface Registration {
  phone: string;
  password: string;
  code: string;
  inviteCode?: string | undefined;
}

function newInviteCode(): string {
  let code = '';
  for (let i = 0; i < INVITE_LENGTH; i++) code += INVITE_ALPHABET[randomInt(0, INVITE_ALPHABET.length)];
  return code;
}

/** Creates a session and returns its token (the only time the token exists in clear). */
async function openSession(station: Station, userId: number): Promise<string> {
  const token = newSessionToken();
  const now = station.clock.now();
  await station.db
    .insertInto('sessions')
    .values({
      user_id: userId,
      token_hash: hashToken(token),
      created_at: now,
      expires_at: now + station.config.settings.sessionTtlDays * 86_400_000,
      revoked_at: null,
    })
    .execute();
  return token;
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
            await post(trx, {
              accountId: account.id,
              userId: user.id,
              type: 'opening_balance',
              amount: opening,
              time: now,
              note: 'paper starting balance',
            });
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

/** BAD_CREDENTIALS whether the phone is unknown or the password wrong, after the same amount of work. */
export async function login(
  station: Station,
  input: { phone: string; password: string },
): Promise<{ token: string; userId: number }> {
  assertFields({ phone: checkPhone(input.phone), password: checkPassword(input.password) });
  const user = await findUserByPhone(station, input.phone.trim());
  const password = normalizePassword(input.password);
  const ok = await verifyPassword(password, user?.password_hash ?? (await dummyPasswordHash()));
  if (!user || !ok) throw new AppError('BAD_CREDENTIALS');
  return { token: await openSession(station, user.id), userId: user.id };
}

export interface SessionInfo {
  sessionId: number;
  userId: number;
}

/** The live session of a token, or null (unknown, revoked or expired). */
export async function sessionOf(station: Station, token: string): Promise<SessionInfo | null> {
  const row = await station.db
    .selectFrom('sessions')
    .select(['id', 'user_id', 'expires_at', 'revoked_at'])
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row || row.revoked_at !== null || row.expires_at <= station.clock.now()) return null;
  return { sessionId: row.id, userId: row.user_id };
}

export async function logout(station: Station, token: string): Promise<void> {
  await station.db
    .updateTable('sessions')
    .set({ revoked_at: station.clock.now() })
    .where('token_hash', '=', hashToken(token))
    .where('revoked_at', 'is', null)
    .execute();
}

/** The user with masked phone and the five accounts valued at current prices. */
export async function userInfo(station: Station, userId: number): Promise<User> {
  const user = await station.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const accounts = await station.db
    .selectFrom('accounts')
    .selectAll()
    .where('user_id', '=', userId)
    .execute();
  const positions = await station.db
    .selectFrom('positions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('state', '=', 'open')
    .execute();
  const bankCard = await station.db
    .selectFrom('bank_cards')
    .select('id')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const now = station.clock.now();
  const order = new Map(ACCOUNT_TYPES.map((t, i) => [t, i]));
  return {
    id: user.id,
    phone: maskPhone(user.phone),
    realName: user.real_name,
    kycStatus: user.kyc_status,
    kycFailReason: user.kyc_fail_reason,
    hasBankCard: bankCard !== undefined,
    hasWithdrawPassword: user.withdraw_password_hash !== null,
    inviteCode: user.invite_code,
    accounts: accounts
      .sort((a, b) => (order.get(a.type) ?? 0) - (order.get(b.type) ?? 0))
      .map((account) =>
        toAccount(
          account,
          positions
            .filter((p) => p.account_id === account.id)
            .map((p) => {
              const instrument = station.market.find(p.code);
              const price = instrument ? station.market.quote(instrument, now).price : p.open_price;
              return { margin: p.margin, pnl: positionPnlMinor(p, price) };
            }),
          station.config.settings.liquidationLine,
        ),
      ),
  };
}
