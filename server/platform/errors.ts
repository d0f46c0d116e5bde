/** Errors as values with codes (CONVENTIONS.md): thrown anywhere, turned into the envelope in one place. */
import { ERROR_HTTP_STATUS, type ErrorCode } from '../../src/shared/api/envelope';
import { checkLots, type ValidationKey } from '../../src/shared/validation';

/**
 * The key of a field's message under `validation.`: a shared check's key, or a message that names a value
 * the station knows and the request does not (spec §5: the user must learn what to type instead).
 */
export type FieldMessageKey = ValidationKey | 'lotsAboveMaxOf';

/** A field's message key with the values of its `{name}` placeholders. */
export interface FieldProblem {
  key: FieldMessageKey;
  params?: Record<string, string | number>;
}

export interface AppErrorOptions {
  /** For VALIDATION: each bad field with the key of its message under `validation.`. */
  fields?: Record<string, FieldMessageKey>;
  /** Values for the `{name}` placeholders of a field's message, by field. */
  fieldParams?: Record<string, Record<string, string | number>>;
  /** A message key under `errors.` other than the code itself (e.g. CLOSE_OUTSIDE_TRADING_HOURS). */
  msgKey?: string;
  /** Values for `{name}` placeholders in the message. */
  params?: Record<string, string | number>;
  /** The HTTP status when it differs from the code's usual one (e.g. 413 for a body too large). */
  httpStatus?: number;
}

export class AppError extends Error {
  override name = 'AppError';
  readonly code: ErrorCode;
  readonly fields: Record<string, FieldMessageKey> | undefined;
  readonly fieldParams: Record<string, Record<string, string | number>> | undefined;
  readonly msgKey: string;
  readonly params: Record<string, string | number> | undefined;
  readonly httpStatus: number;

  constructor(code: ErrorCode, opts: AppErrorOptions = {}) {
    super(opts.msgKey ?? code);
    this.code = code;
    this.fields = opts.fields;
    this.fieldParams = opts.fieldParams;
    this.msgKey = opts.msgKey ?? code;
    this.params = opts.params;
    this.httpStatus = opts.httpStatus ?? ERROR_HTTP_STATUS[code];
  }
}

/** A VALIDATION error naming bad fields, or nothing when every check passed. */
export function fieldErrors(checks: Record<string, ValidationKey | FieldProblem | null>): AppError | null {
  const fields: Record<string, FieldMessageKey> = {};
  const fieldParams: Record<string, Record<string, string | number>> = {};
  for (const [name, check] of Object.entries(checks)) {
    if (!check) continue;
    if (typeof check === 'string') {
      fields[name] = check;
    } else {
      fields[name] = check.key;
      if (check.params) fieldParams[name] = check.params;
    }
  }
  if (Object.keys(fields).length === 0) return null;
  return new AppError(
    'VALIDATION',
    Object.keys(fieldParams).length > 0 ? { fields, fieldParams } : { fields },
  );
}

/**
 * checkLots (spec §5) for an order the station refuses: above the maximum the message names the maximum,
 * as the app's own form does, so "101 lots" is answered with the 100 the user may buy.
 */
export function lotsProblem(lots: number | string | undefined | null, max: number): FieldProblem | null {
  const key = checkLots(lots, max);
  if (key === 'lotsAboveMax') return { key: 'lotsAboveMaxOf', params: { max } };
  return key ? { key } : null;
}

/** Throws a VALIDATION error when any check failed. */
export function assertFields(checks: Record<string, ValidationKey | FieldProblem | null>): void {
  const error = fieldErrors(checks);
  if (error) throw error;
}
