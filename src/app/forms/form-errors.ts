import type { TranslationFunctions } from '../../../locales/i18n-types';
import type { ValidationKey } from '../../shared/validation';
import { toApiError } from '../api/client';

export type FieldErrors<F extends string> = Partial<Record<F, string>>;

/** A shared validation result (an i18n key under `validation.`) as the user's message, or null. */
export function validationMessage(LL: TranslationFunctions, key: ValidationKey | null): string | null {
  return key ? LL.validation[key]() : null;
}

/**
 * A quantity check's message (checkLots): above the maximum it names the maximum, so the user knows what to
 * type instead.
 */
export function lotsMessage(LL: TranslationFunctions, key: ValidationKey | null, max: number): string | null {
  if (key === 'lotsAboveMax') return LL.validation.lotsAboveMaxOf({ max });
  return validationMessage(LL, key);
}

/** Only the fields that have a message. */
export function compact<F extends string>(errors: Record<F, string | null>): FieldErrors<F> {
  const out: FieldErrors<F> = {};
  for (const [field, message] of Object.entries(errors) as [F, string | null][]) {
    if (message) out[field] = message;
  }
  return out;
}

/**
 * A failed submit as messages: the station's per-field messages go under their fields (when the form
 * has that field), anything else becomes the form's own message.
 */
export function serverErrors<F extends string>(
  error: unknown,
  fields: readonly F[],
): { fieldErrors: FieldErrors<F>; formError: string | null } {
  const apiError = toApiError(error);
  const fieldErrors: FieldErrors<F> = {};
  for (const [name, message] of Object.entries(apiError.fields ?? {})) {
    if ((fields as readonly string[]).includes(name)) fieldErrors[name as F] = message;
  }
  return { fieldErrors, formError: Object.keys(fieldErrors).length > 0 ? null : apiError.message };
}
