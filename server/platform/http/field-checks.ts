/**
 * Checks of request fields that every route shares, before its own schema's: each field is one string or
 * number, and no number is infinite.
 */
import type { FastifyInstance } from 'fastify';
import { CONTROL_CHARACTERS, type ValidationKey } from '../../../src/shared/validation';
import { AppError } from '../errors';
import { Readable } from 'node:stream';

export function installFieldChecks(app: FastifyInstance): void {
  // The two checks below are plain callbacks, not async functions: they run on every call, and an async
  // hook costs Fastify a promise and a microtask turn each time (measured with npm run bench).
  app.addHook('preValidation', (request, _reply, done) => {
    // A POST without a body (e.g. logout) is an empty form, so its fields are checked one by one.
    if (request.method === 'POST' && (request.body === undefined || request.body === null)) request.body = {};
    // Every field of this API is a single string or number. Refusing other JSON values here keeps the
    // schema's type coercion (needed for form strings) from reading `true` as 1 or `null` as 0.
    // Control characters are refused in every field (CONTROL_CHARACTERS), before any handler spends a
    // quota on the call.
    let fields: Record<string, ValidationKey> | null = null;
    for (const source of [request.query, request.body]) {
      // Raw uploads (KYC photos) are a stream of bytes, not fields.
      if (typeof source !== 'object' || source === null || Array.isArray(source) || isBytes(source)) continue;
      for (const [name, value] of Object.entries(source)) {
        if (typeof value === 'string') {
          if (CONTROL_CHARACTERS.test(value)) (fields ??= {})[name] = 'controlCharacters';
        } else if (typeof value !== 'number' && source === request.body) (fields ??= {})[name] = 'invalid';
      }
    }
    if (fields) done(new AppError('VALIDATION', { fields }));
    else done();
  });
  // Ajv's type coercion turns "9…9" (400 digits) or "1e400" into Infinity, which then passes integer
  // and maximum checks (found by tests/server/fuzz.test.ts): refuse any non-finite number.
  app.addHook('preHandler', (request, _reply, done) => {
    let fields: Record<string, 'invalid'> | null = null;
    for (const source of [request.query, request.body]) {
      if (typeof source !== 'object' || source === null || isBytes(source)) continue;
      for (const [name, value] of Object.entries(source)) {
        if (typeof value === 'number' && !Number.isFinite(value)) (fields ??= {})[name] = 'invalid';
      }
    }
    if (fields) done(new AppError('VALIDATION', { fields }));
    else done();
  });
}

/** A raw body: bytes, or the stream of an upload still arriving. */
function isBytes(source: object): boolean {
  return Buffer.isBuffer(source) || source instanceof Readable;
}
