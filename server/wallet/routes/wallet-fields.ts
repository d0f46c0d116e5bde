/** Request fields, answer shapes and request helpers the wallet's calls share. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { checkMoneyAmount } from '../../../src/shared/validation';
import type { ReasonText } from '../wallet';
import { fields, pageNumField, pageSizeField, type FieldRule } from '../../platform';
import { localizeReason } from '../../identity';

export const amountField = {
  type: 'number',
  exclusiveMinimum: 0,
  maximum: 1_000_000_000_000,
  description: 'major units, at most 2 decimals',
} as const;
/** spec §5: "the amount must be correct" for whatever failed the schema. */
export const amountRule: FieldRule = (raw) =>
  checkMoneyAmount(typeof raw === 'number' || typeof raw === 'string' ? raw : undefined) ??
  (raw === undefined || typeof raw === 'number' || typeof raw === 'string' ? null : 'amountInvalid');
export const idField = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;
export const int = { type: 'integer' } as const;
export const num = { type: 'number' } as const;
export const str = { type: 'string' } as const;
export const nullable = (type: 'integer' | 'number' | 'string') => ({ type: [type, 'null'] }) as const;

/** An answer object whose every property is required and nothing else is allowed. */
export function object(properties: Record<string, unknown>) {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  } as const;
}

export const userIdOf = (app: FastifyInstance, request: FastifyRequest) => app.auth.session(request).userId;

/** Turns a stored reason into the request's language. */
export function reasonsFor(app: FastifyInstance, request: FastifyRequest): ReasonText {
  const messages = app.i18n.messages(request.headers['accept-language']);
  return (reason) => localizeReason(messages, reason);
}

/** A page query (pageNum, pageSize at the station's default) with the list's own filters. */
export function pageQuery(app: FastifyInstance, extra: Record<string, unknown>) {
  return fields(
    {
      ...extra,
      pageNum: pageNumField,
      pageSize: { ...pageSizeField, default: app.station.config.settings.pageSizeDefault },
    },
    [],
  );
}
