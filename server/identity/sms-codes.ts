/** SMS codes for registration and password reset: sending, daily caps, checking a code once. */
import { randomInt } from 'node:crypto';
import { checkPhone, checkSmsCode, maskPhone } from '../../src/shared/validation';
import {
  AppError,
  assertFields,
  localDay,
  databaseRateLimiter,
  type UserRow,
  type Station,
  type Taken,
} from '../platform';
import { sameSecret } from './credentials';

/** The user registered with this phone, if any. */
export async function findUserByPhone(station: Station, phone: string): Promise<UserRow | undefined> {
  return station.db.selectFrom('users').selectAll().where('phone', '=', phone).executeTakeFirst();
}

export type SmsPurpose = 'reg' | 'forget';

/**
 * Sends a 6-digit code valid for the configured time: one per phone and purpose per resend interval, at
 * most the daily caps per phone and per caller address. The limits are taken all at once or none
 * (rate-limit.ts: in the send's transaction, or in Redis in scale-out mode), so a refused send changes no counter. The demo gateway hands the code back to the
 * app; the console gateway writes it to the log. Forgotten-password codes go to registered phones only.
 */
export async function sendSmsCode(
  station: Station,
  phoneRaw: string,
  purpose: SmsPurpose,
  ip: string | null = null,
): Promise<{ ttlSeconds: number; demoCode?: string }> {
  assertFields({ phone: checkPhone(phoneRaw) });
  const phone = phoneRaw.trim();
  const { settings, identity } = station.config;
  const registered = (await findUserByPhone(station, phone)) !== undefined;
  if (purpose === 'reg' && registered) throw new AppError('PHONE_TAKEN');
  // The forgotten-password SMS answers alike whether the phone is registered or not (the limits are taken
  // alike too); only a registered phone gets a code, so the answer tells a stranger nothing.
  const sendsCode = !(purpose === 'forget' && !registered);
  const now = station.clock.now();
  const day = localDay(now, settings.cookieTimeZone);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const limiter = station.rateLimiter ?? databaseRateLimiter;
  const held: Taken[] = [];
  try {
    await station.db.transaction().execute(async (trx) => {
      const taken = await limiter.take(trx, [
        {
          kind: 'interval',
          name: purpose,
          subject: phone,
          now,
          intervalMs: settings.smsResendSeconds * 1000,
        },
        { kind: 'count', key: `sms:phone:${phone}`, period: day, limit: identity.smsDailyPerPhone },
        ...(ip === null
          ? []
          : [
              {
                kind: 'count',
                key: `sms:ip:${ip.slice(0, 64)}`,
                period: day,
                limit: identity.smsDailyPerIp,
              } as const,
            ]),
      ]);
      if (taken.refused === 0) {
        throw new AppError('RATE_LIMITED', {
          msgKey: 'SMS_TOO_SOON',
          params: { seconds: settings.smsResendSeconds },
        });
      }
      if (taken.refused !== null) throw new AppError('RATE_LIMITED', { msgKey: 'SMS_DAILY_LIMIT' });
      held.push(taken);
      if (!sendsCode) return;
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
  } catch (error) {
    // A send that fails after taking its limits gives them back (the database's roll back with the transaction).
    for (const taken of held) await taken.release();
    throw error;
  }
  if (!sendsCode) return { ttlSeconds: settings.smsCodeTtlSeconds };
  if (station.config.smsGateway === 'console') {
    // The console gateway's "delivery" is this line: the masked number says whose it is; a full phone
    // number never reaches the log.
    station.log.info(
      { sms: { phone: maskPhone(phone), purpose, code } },
      `SMS code for ${maskPhone(phone)}: ${code}`,
    );
    return { ttlSeconds: settings.smsCodeTtlSeconds };
  }
  return { ttlSeconds: settings.smsCodeTtlSeconds, demoCode: code };
}

/**
 * Checks and uses up the latest code sent to the phone (`consume: false` checks only, for checkCode.do).
 * Wrong guesses count (committed even though the call fails); after too many the code is burnt. BAD_CODE
 * for a wrong or burnt code, CODE_EXPIRED for the right code too late.
 */
export async function consumeSmsCode(
  station: Station,
  phone: string,
  purpose: SmsPurpose,
  given: string,
  consume = true,
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
    if (!consume) return 'OK' as const;
    await trx.updateTable('sms_codes').set({ used_at: now }).where('id', '=', latest.id).execute();
    return 'OK' as const;
  });
  if (outcome !== 'OK') throw new AppError(outcome);
}

/** checkCode.do: is this the right, live code for the phone? Wrong guesses count as for registration. */
export async function checkCode(
  station: Station,
  input: { phone: string; code: string; purpose: SmsPurpose },
): Promise<void> {
  assertFields({ phone: checkPhone(input.phone), code: checkSmsCode(input.code) });
  await consumeSmsCode(station, input.phone.trim(), input.purpose, input.code.trim(), false);
}
