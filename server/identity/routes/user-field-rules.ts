/**
 * The validation messages of the user calls' fields when a value fails its schema: the same checks the
 * forms run (src/shared/validation), so the server answers with the form's message.
 */
import {
  checkPassword,
  checkPhone,
  checkSmsCode,
  checkWithdrawPassword,
} from '../../../src/shared/validation';
import type { FieldRule } from '../../platform';

const asText = (raw: unknown): string | undefined => (typeof raw === 'string' ? raw : undefined);
export const phoneRule: FieldRule = (raw) =>
  checkPhone(asText(raw)) ?? (typeof raw === 'string' ? null : 'phoneInvalid');
export const passwordRule: FieldRule = (raw) =>
  checkPassword(asText(raw)) ?? (typeof raw === 'string' ? null : 'passwordInvalid');
export const smsCodeRule: FieldRule = (raw) =>
  checkSmsCode(asText(raw)) ?? (typeof raw === 'string' ? null : 'codeInvalid');
export const withdrawPasswordRule: FieldRule = (raw) =>
  checkWithdrawPassword(asText(raw)) ?? (typeof raw === 'string' ? null : 'withdrawPasswordInvalid');
