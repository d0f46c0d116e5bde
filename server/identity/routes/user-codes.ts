/**
 * SMS codes (registration and forgotten password), checking a code, and resetting a forgotten password.
 */
import type { FastifyInstance } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import { checkCode, resetPassword, sendSmsCode, type SmsPurpose } from '../users';
import { ok, fields, passwordField, phoneField, postConsumes, responses, smsCodeField } from '../../platform';
import { passwordRule, phoneRule, smsCodeRule } from './user-field-rules';

const smsResult = {
  type: 'object',
  properties: { ttlSeconds: { type: 'integer' }, demoCode: { type: 'string' } },
  required: ['ttlSeconds'],
  additionalProperties: false,
} as const;

/** Sending the registration and forgotten-password codes, checking one, and the reset it allows. */
export function smsCodeRoutes(app: FastifyInstance): void {
  const station = app.station;
  app.post<{ Body: CallIn<'POST /api/sms/sendRegSms.do'> }>(
    '/api/sms/sendRegSms.do',
    {
      config: { fieldRules: { phone: phoneRule } },
      schema: {
        tags: ['user'],
        summary: 'Send a registration code (the demo gateway returns it in demoCode)',
        consumes: postConsumes,
        body: fields({ phone: phoneField }, ['phone']),
        response: responses(smsResult),
      },
    },
    async (request) => ok(await sendSmsCode(station, request.body.phone, 'reg', request.ip)),
  );

  app.post<{ Body: CallIn<'POST /api/sms/sendForgetSms.do'> }>(
    '/api/sms/sendForgetSms.do',
    {
      config: { fieldRules: { phone: phoneRule } },
      schema: {
        tags: ['user'],
        summary: 'Send a forgotten-password code to a registered phone (demo gateway: in demoCode)',
        consumes: postConsumes,
        body: fields({ phone: phoneField }, ['phone']),
        response: responses(smsResult),
      },
    },
    async (request) => ok(await sendSmsCode(station, request.body.phone, 'forget', request.ip)),
  );

  app.post<{ Body: CallIn<'POST /code/checkCode.do'> }>(
    '/code/checkCode.do',
    {
      config: { fieldRules: { phone: phoneRule, code: smsCodeRule } },
      schema: {
        tags: ['user'],
        summary: 'Is this SMS code right and live? (does not use it up; wrong guesses count)',
        consumes: postConsumes,
        body: fields(
          {
            phone: phoneField,
            code: smsCodeField,
            purpose: { type: 'string', enum: ['reg', 'forget'], default: 'reg' },
          },
          ['phone', 'code'],
        ),
        response: responses({ type: 'null' }),
      },
    },
    async (request) => {
      const purpose: SmsPurpose = request.body.purpose ?? 'reg';
      await checkCode(station, { phone: request.body.phone, code: request.body.code, purpose });
      return ok(null);
    },
  );

  app.post<{ Body: CallIn<'POST /api/user/updatePwd.do'> }>(
    '/api/user/updatePwd.do',
    {
      config: { fieldRules: { phone: phoneRule, code: smsCodeRule, password: passwordRule } },
      schema: {
        tags: ['user'],
        summary: 'Forgotten password: SMS code and a new password; every session ends',
        consumes: postConsumes,
        body: fields({ phone: phoneField, code: smsCodeField, password: passwordField }, [
          'phone',
          'code',
          'password',
        ]),
        response: responses({ type: 'null' }),
      },
    },
    async (request) => {
      await resetPassword(station, request.body);
      return ok(null);
    },
  );
}
