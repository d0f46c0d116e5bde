/** Errors as values with codes (CONVENTIONS.md): thrown anywhere, turned into the envelope in one place. */
import { ERROR_HTTP_STATUS, type ErrorCode } from '../../src/shared/api/envelope';
import type { ValidationKey } from '../../src/shared/validation';

export interface AppErrorOptions {
  /** For VALIDATION: each bad field with the key of its message under `validation.`. */
  fields?: Record<string, ValidationKey>;
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
  readonly fields: Record<string, ValidationKey> | undefined;
  readonly msgKey: string;
  readonly params: Record<string, string | number> | undefined;
  readonly httpStatus: number;

  constructor(code: ErrorCode, opts: AppErrorOptions = {}) {
    super(opts.msgKey ?? code);
    this.code = code;
    this.fields = opts.fields;
    this.msgKey = opts.msgKey ?? code;
    this.params = opts.params;
    this.httpStatus = opts.httpStatus ?? ERROR_HTTP_STATUS[code];
  }
}

/** A VALIDATION error naming bad fields, or nothing when every check passed. */
export function fieldErrors(checks: Record<string, ValidationKey | null>): AppError | null {
  const fields: Record<string, ValidationKey> = {};
  for (const [name, key] of Object.entries(checks)) if (key) fields[name] = key;
  return Object.keys(fields).length > 0 ? new AppError('VALIDATION', { fields }) : null;
}

/** Throws a VALIDATION error when any check failed. */
export function assertFields(checks: Record<string, ValidationKey | null>): void {
  const error = fieldErrors(checks);
  if (error) throw error;
}
