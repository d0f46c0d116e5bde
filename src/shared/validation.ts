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
  | 'codeEmpty'
  | 'codeInvalid'
  | 'inviteCodeEmpty'
  | 'lotsEmpty'
  | 'lotsBelowOne'
  | 'lotsAboveMax'
  | 'lotsNotWhole'
  | 'nameInvalid'
  | 'idCardInvalid'
  | 'bankCardInvalid'
  | 'required'
  | 'invalid';

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

export function checkSmsCode(code: string | undefined | null): ValidationKey | null {
  const value = (code ?? '').trim();
  if (value === '') return 'codeEmpty';
  return SMS_CODE_PATTERN.test(value) ? null : 'codeInvalid';
}

/** spec §5: purchase is 1 to `max` lots; the quantity cannot be empty, below 1 or above the maximum. */
export function checkLots(lots: number | string | undefined | null, max: number): ValidationKey | null {
  if (lots === undefined || lots === null || lots === '') return 'lotsEmpty';
  const n = typeof lots === 'number' ? lots : Number(lots);
  if (!Number.isFinite(n)) return 'lotsEmpty';
  if (!Number.isInteger(n)) return 'lotsNotWhole';
  if (n < 1) return 'lotsBelowOne';
  if (n > max) return 'lotsAboveMax';
  return null;
}

export function checkChineseName(name: string | undefined | null): ValidationKey | null {
  return CHINESE_NAME_PATTERN.test((name ?? '').trim()) ? null : 'nameInvalid';
}

export function checkIdCard(id: string | undefined | null): ValidationKey | null {
  return ID_CARD_PATTERN.test((id ?? '').trim()) ? null : 'idCardInvalid';
}

export function checkBankCard(no: string | undefined | null): ValidationKey | null {
  return BANK_CARD_PATTERN.test((no ?? '').replace(/\s+/g, '')) ? null : 'bankCardInvalid';
}

/** Masks a phone number for display: 138****0000. */
export function maskPhone(phone: string): string {
  return phone.length === 11 ? `${phone.slice(0, 3)}****${phone.slice(7)}` : phone;
}
