/**
 * Input rules of spec §5, written once for the app's forms and the station's request checks.
 * Each check returns null when the value is good, or the i18n key (under `validation.`) of the message.
 */

export type ValidationKey =
  | 'phoneEmpty'
  | 'phoneInvalid'
  | 'passwordEmpty'
  | 'passwordInvalid'
  | 'passwordConfirmEmpty'
  | 'passwordsDiffer'
  | 'newPasswordInconsistent'
  | 'withdrawPasswordInvalid'
  | 'idCardBirthDate'
  | 'idCardCheckDigit'
  | 'imageType'
  | 'imageTooLarge'
  | 'codeEmpty'
  | 'codeInvalid'
  | 'inviteCodeEmpty'
  | 'lotsEmpty'
  | 'lotsNotNumber'
  | 'lotsBelowOne'
  | 'lotsAboveMax'
  | 'lotsNotWhole'
  | 'nameInvalid'
  | 'idCardInvalid'
  | 'bankCardInvalid'
  | 'required'
  | 'invalid'
  | 'amountEmpty'
  | 'amountInvalid'
  | 'controlCharacters'
  | 'alertValueInvalid'
  | 'alertAlreadyMet';

/**
 * Control characters (C0 but tab, line feed and carriage return; DEL; C1) and the bidirectional overrides:
 * no field of the API needs them, and printed raw they can clear an operator's terminal, set its title or
 * write its clipboard, or make text read backwards.
 */
export const CONTROL_CHARACTERS =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

/** spec §5: exactly 11 digits. */
export const PHONE_PATTERN = /^\d{11}$/;
/** spec §5: 6–12 of letters, digits and ! @ # $ % ^ & *. */
export const PASSWORD_PATTERN = /^[A-Za-z0-9!@#$%^&*]{6,12}$/;
/** The SMS code the station sends: 6 digits. */
export const SMS_CODE_PATTERN = /^\d{6}$/;
/** spec §5: Chinese characters only (with the middle dot of transliterated names). */
export const CHINESE_NAME_PATTERN = /^[\u4e00-\u9fa5·]{2,20}$/;
/** spec §5: 15 digits, or 18 digits, or 17 digits plus a digit or X. */
export const ID_CARD_PATTERN = /^(\d{15}|\d{17}[\dXx])$/;
/** spec §5: first digit 1-9 followed by 14 to 18 digits. */
export const BANK_CARD_PATTERN = /^[1-9]\d{14,18}$/;

/** spec §5: whitespace is stripped from passwords. */
export function normalizePassword(raw: string): string {
  return raw.replace(/\s+/g, '');
}

export function checkPhone(phone: string | undefined | null): ValidationKey | null {
  const value = (phone ?? '').trim();
  if (value === '') return 'phoneEmpty';
  return PHONE_PATTERN.test(value) ? null : 'phoneInvalid';
}

export function checkPassword(raw: string | undefined | null): ValidationKey | null {
  const value = normalizePassword(raw ?? '');
  if (value === '') return 'passwordEmpty';
  return PASSWORD_PATTERN.test(value) ? null : 'passwordInvalid';
}

export function checkPasswordConfirm(password: string, confirm: string): ValidationKey | null {
  const c = normalizePassword(confirm);
  if (c === '') return 'passwordConfirmEmpty';
  return normalizePassword(password) === c ? null : 'passwordsDiffer';
}

/** Change password: the new password and its confirmation ("the new password is inconsistent"). */
export function checkNewPasswordConfirm(password: string, confirm: string): ValidationKey | null {
  const c = normalizePassword(confirm);
  if (c === '') return 'passwordConfirmEmpty';
  return normalizePassword(password) === c ? null : 'newPasswordInconsistent';
}

/** The withdrawal password: 6 digits. */
export const WITHDRAW_PASSWORD_PATTERN = /^\d{6}$/;

export function checkWithdrawPassword(raw: string | undefined | null): ValidationKey | null {
  const value = (raw ?? '').trim();
  if (value === '') return 'passwordEmpty';
  return WITHDRAW_PASSWORD_PATTERN.test(value) ? null : 'withdrawPasswordInvalid';
}

export function checkSmsCode(code: string | undefined | null): ValidationKey | null {
  const value = (code ?? '').trim();
  if (value === '') return 'codeEmpty';
  return SMS_CODE_PATTERN.test(value) ? null : 'codeInvalid';
}

/** spec §5 "the amount must be correct": a positive amount in major units with at most 2 decimals. */
export function checkMoneyAmount(raw: number | string | undefined | null): ValidationKey | null {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === ''))
    return 'amountEmpty';
  const n = typeof raw === 'number' ? raw : Number(raw);
  if (!Number.isFinite(n) || n <= 0) return 'amountInvalid';
  const cents = n * 100;
  const whole = Math.round(cents);
  if (Math.abs(cents - whole) > 1e-6 || !Number.isSafeInteger(whole)) return 'amountInvalid';
  return null;
}

/**
 * spec §5: purchase is 1 to `max` lots; the quantity cannot be empty, other than a number, below 1 or above
 * the maximum.
 */
export function checkLots(lots: number | string | undefined | null, max: number): ValidationKey | null {
  if (lots === undefined || lots === null || lots === '') return 'lotsEmpty';
  if (typeof lots === 'string' && lots.trim() === '') return 'lotsEmpty';
  const n = typeof lots === 'number' ? lots : Number(lots);
  // "abc" is there but is not a number: saying "cannot be empty" would send the user looking for nothing.
  if (!Number.isFinite(n)) return 'lotsNotNumber';
  if (!Number.isInteger(n)) return 'lotsNotWhole';
  if (n < 1) return 'lotsBelowOne';
  if (n > max) return 'lotsAboveMax';
  return null;
}

export function checkChineseName(name: string | undefined | null): ValidationKey | null {
  return CHINESE_NAME_PATTERN.test((name ?? '').trim()) ? null : 'nameInvalid';
}

/** ISO 7064 MOD 11-2 weights of the first 17 digits of an 18-digit ID number (GB 11643). */
const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK_CHARS = '10X98765432';

/** The check character (0-9 or X) of the first 17 digits of an 18-digit ID number. */
export function idCardCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * (ID_WEIGHTS[i] ?? 0);
  return ID_CHECK_CHARS[sum % 11] ?? '';
}

/** True for a real calendar date, not after `today` and not before 1800. */
function isRealBirthDate(year: number, month: number, day: number, today: Date): boolean {
  if (year < 1800 || month < 1 || month > 12 || day < 1) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return false;
  }
  return date.getTime() <= Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
}

/**
 * spec §5 and DOMAIN.md: 15 digits (birth date YYMMDD of 19YY), or 18 with a real birth date YYYYMMDD
 * and the ISO 7064 MOD 11-2 check character (0-9 or X). `today` bounds the birth date (tests pin it).
 */
export function checkIdCard(id: string | undefined | null, today: Date = new Date()): ValidationKey | null {
  const value = (id ?? '').trim().toUpperCase();
  if (!ID_CARD_PATTERN.test(value)) return 'idCardInvalid';
  const [y, m, d] =
    value.length === 18
      ? [Number(value.slice(6, 10)), Number(value.slice(10, 12)), Number(value.slice(12, 14))]
      : [1900 + Number(value.slice(6, 8)), Number(value.slice(8, 10)), Number(value.slice(10, 12))];
  if (!isRealBirthDate(y, m, d, today)) return 'idCardBirthDate';
  if (value.length === 18 && idCardCheckChar(value.slice(0, 17)) !== value[17]) return 'idCardCheckDigit';
  return null;
}

export function checkBankCard(no: string | undefined | null): ValidationKey | null {
  return BANK_CARD_PATTERN.test((no ?? '').replace(/\s+/g, '')) ? null : 'bankCardInvalid';
}

/** Masks a phone number for display: 138****0000. */
export function maskPhone(phone: string): string {
  return phone.length === 11 ? `${phone.slice(0, 3)}****${phone.slice(7)}` : phone;
}
