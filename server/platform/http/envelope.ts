/** The response envelope of API.md and the one place that turns errors into it. */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OkEnvelope, FailEnvelope } from '../../../src/shared/api/envelope';
import type { ValidationKey } from '../../../src/shared/validation';
import { AppError } from '../errors';
import type { Translator } from '../i18n';

export function ok<T>(data: T): OkEnvelope<T> {
  return { status: 0, msg: '', data };
}

interface AjvIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

/** The field an Ajv issue is about, if any. */
function issueField(issue: AjvIssue): string | null {
  if (issue.keyword === 'required' && typeof issue.params.missingProperty === 'string') {
    return issue.params.missingProperty;
  }
  if (issue.keyword === 'additionalProperties' && typeof issue.params.additionalProperty === 'string') {
    return issue.params.additionalProperty;
  }
  const first = issue.instancePath.split('/')[1];
  return first ? first.replace(/~1/g, '/').replace(/~0/g, '~') : null;
}

/** Names each bad field of a schema failure with a message key, using the route's field rules first. */
export function validationFields(
  request: FastifyRequest,
  error: FastifyError,
): Record<string, ValidationKey> {
  const rules = request.routeOptions.config.fieldRules ?? {};
  const context = (error as { validationContext?: string }).validationContext;
  const source = (
    context === 'querystring' ? request.query : context === 'body' ? request.body : null
  ) as Record<string, unknown> | null;
  const raw = (name: string): unknown =>
    source && typeof source === 'object' && Object.prototype.hasOwnProperty.call(source, name)
      ? source[name]
      : undefined;
  const result: Record<string, ValidationKey> = {};
  for (const issue of (error.validation ?? []) as AjvIssue[]) {
    const field = issueField(issue) ?? (context === 'body' ? 'body' : 'query');
    if (result[field]) continue;
    const rule = rules[field];
    const fromRule = issue.keyword === 'additionalProperties' ? null : rule ? rule(raw(field)) : null;
    result[field] = fromRule ?? (issue.keyword === 'required' ? 'required' : 'invalid');
  }
  // Report every other field the rules find wrong too, so one answer names all of them.
  for (const [field, rule] of Object.entries(rules)) {
    if (result[field]) continue;
    const key = rule(raw(field));
    if (key) result[field] = key;
  }
  return result;
}

export function sendFailure(reply: FastifyReply, translator: Translator, error: AppError): FastifyReply {
  const messages = translator.messages(reply.request.headers['accept-language']);
  const body: FailEnvelope = {
    status: error.httpStatus,
    code: error.code,
    msg: messages.error(error.msgKey, error.params),
  };
  if (error.fields) {
    body.fields = Object.fromEntries(
      Object.entries(error.fields).map(([field, key]) => [
        field,
        messages.validation(key, error.fieldParams?.[field]),
      ]),
    );
  }
  return reply.code(error.httpStatus).type('application/json; charset=utf-8').send(body);
}

/** Fastify's own client errors (bad bodies, URLs) as AppErrors; null for anything else. */
export function fromFrameworkError(request: FastifyRequest, error: FastifyError): AppError | null {
  if (error.validation) {
    return new AppError('VALIDATION', { fields: validationFields(request, error) });
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('VALIDATION', { msgKey: 'BODY_TOO_LARGE', httpStatus: 413 });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('VALIDATION', { msgKey: 'UNSUPPORTED_MEDIA_TYPE', httpStatus: 415 });
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_EMPTY_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError('VALIDATION', { msgKey: 'BAD_REQUEST_BODY' });
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    if (status === 404) return new AppError('NOT_FOUND');
    if (status === 429) return new AppError('RATE_LIMITED');
    return new AppError('VALIDATION', { msgKey: 'BAD_REQUEST_BODY', httpStatus: status });
  }
  return null;
}

/** One error handler for the whole station: domain errors, bad input, and real faults (logged, 500). */
export function installErrorHandler(app: FastifyInstance, translator: Translator): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) return sendFailure(reply, translator, error);
    const mapped = fromFrameworkError(request, error);
    if (mapped) return sendFailure(reply, translator, mapped);
    request.log.error({ err: error }, 'unexpected error');
    return sendFailure(reply, translator, new AppError('INTERNAL'));
  });
}
