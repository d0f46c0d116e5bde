/**
 * KYC over HTTP: the photo upload (raw image bytes, judged by content, at most 10 MB), the photo itself
 * for its owner only, and the submission `/user/auth.do`. The rule reviewer that decides submissions is one
 * of the station's jobs (server/jobs).
 */
import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import type { User } from '../../../src/shared/api/types';
import type { CallIn } from '../../../src/shared/api/calls';
import {
  AppError,
  ok,
  fields,
  postConsumes,
  ref,
  responses,
  userSecurity,
  type Messages,
} from '../../platform';
import { MAX_IMAGE_BYTES, readUpload, storeUpload, submitKyc } from '../kyc';
import { userInfo } from '../users';

/** A stored reason `@validation.key` or `@errors.KEY` in the reader's language; other text as it is. */
export function localizeReason(messages: Messages, reason: string | null): string | null {
  if (reason === null || !reason.startsWith('@')) return reason;
  const [section, key = ''] = reason.slice(1).split('.');
  return section === 'validation' ? messages.validation(key) : messages.error(key);
}

export function localizeUser(messages: Messages, user: User): User {
  return { ...user, kycFailReason: localizeReason(messages, user.kycFailReason) };
}

const uploadIdField = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;

export const kycPlugin: FastifyPluginAsync = async (app) => {
  const station = app.station;

  // Photos arrive as the raw body, handed on as the stream it is (stored as it arrives, never whole in
  // memory); the declared type is not trusted, the bytes decide.
  app.addContentTypeParser(/^(?:image\/[\w.+-]+|application\/octet-stream)$/i, (_request, payload, done) =>
    done(null, payload),
  );

  app.post(
    '/user/kyc/upload.do',
    {
      onRequest: app.auth.requireUser,
      bodyLimit: MAX_IMAGE_BYTES,
      schema: {
        tags: ['user'],
        summary: 'Upload a KYC photo (JPEG, PNG or WebP by content, at most 10 MB) as the raw body',
        security: userSecurity,
        consumes: ['image/jpeg', 'image/png', 'image/webp', 'application/octet-stream'],
        response: responses({
          type: 'object',
          properties: {
            id: { type: 'integer' },
            mime: { type: 'string', enum: ['image/jpeg', 'image/png', 'image/webp'] },
            size: { type: 'integer' },
          },
          required: ['id', 'mime', 'size'],
          additionalProperties: false,
        }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      if (!(body instanceof Readable)) throw new AppError('VALIDATION', { fields: { file: 'imageType' } });
      const length = Number(request.headers['content-length']);
      const declared = Number.isSafeInteger(length) && length >= 0 ? length : null;
      try {
        return ok(await storeUpload(station, app.auth.session(request).userId, body, declared));
      } catch (error) {
        // Refused before the whole body was read (a quota, too large): the rest of it is still on the way
        // and nobody reads it, so the connection ends with this answer instead of serving another request
        // behind it.
        if (!body.readableEnded) reply.header('connection', 'close');
        throw error;
      }
    },
  );

  app.get<{ Querystring: { id: number } }>(
    '/user/kyc/image.do',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['user'],
        summary: 'A KYC photo of the logged-in user (anyone else: NOT_FOUND)',
        security: userSecurity,
        querystring: fields({ id: uploadIdField }, ['id']),
        response: { '4xx': ref('ErrorEnvelope'), '5xx': ref('ErrorEnvelope') },
      },
    },
    async (request, reply) => {
      const image = await readUpload(station, app.auth.session(request).userId, request.query.id);
      return reply
        .type(image.mime)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', 'inline')
        .send(image.bytes);
    },
  );

  app.post<{ Body: CallIn<'POST /user/auth.do'> }>(
    '/user/auth.do',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['user'],
        summary: 'Submit (or resubmit after a failure) real name, ID number and the two uploaded photos',
        security: userSecurity,
        consumes: postConsumes,
        body: fields(
          {
            realName: { type: 'string', maxLength: 40, description: 'Chinese characters' },
            idNumber: { type: 'string', maxLength: 32, description: '15 digits, or 18 with the check digit' },
            frontImage: { ...uploadIdField, description: 'upload id of the front photo' },
            backImage: { ...uploadIdField, description: 'upload id of the back photo' },
          },
          ['realName', 'idNumber', 'frontImage', 'backImage'],
        ),
        response: responses(ref('User')),
      },
    },
    async (request) => {
      const userId = app.auth.session(request).userId;
      await submitKyc(station, userId, request.body);
      const messages = app.i18n.messages(request.headers['accept-language']);
      return ok(localizeUser(messages, await userInfo(station, userId)));
    },
  );
};
