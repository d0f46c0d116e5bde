import type { ErrorCode } from '../../shared/api/envelope';

/**
 * The station's codes plus those the client makes itself: no answer arrived (NETWORK, TIMEOUT; OFFLINE
 * when the device is offline and nothing stored could answer a read), or the call was not sent at all
 * because the device is offline (OFFLINE_NOT_SENT).
 */
export type ClientErrorCode = ErrorCode | 'NETWORK' | 'TIMEOUT' | 'OFFLINE' | 'OFFLINE_NOT_SENT' | 'TOO_OLD';

/** A failed call: the envelope's code, its message (already in the user's language) and bad fields. */
export class ApiError extends Error {
  readonly code: ClientErrorCode;
  /** HTTP status; 0 when no answer arrived. */
  readonly status: number;
  readonly fields: Record<string, string> | undefined;

  constructor(code: ClientErrorCode, message: string, status: number, fields?: Record<string, string>) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.fields = fields;
  }

  /** No answer at all: the request may or may not have reached the station. */
  get isNetwork(): boolean {
    return this.code === 'NETWORK' || this.code === 'TIMEOUT' || this.code === 'OFFLINE';
  }
}

export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}
