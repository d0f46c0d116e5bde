import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/app/api/errors';
import { refusalMessages } from '../../src/app/forms/use-form';

type Field = 'amount' | 'password' | 'oldPassword';
const FIELDS: readonly Field[] = ['amount', 'password', 'oldPassword'];

describe('a station refusal as a form’s messages', () => {
  it('puts a field the station names under that field', () => {
    const refusal = new ApiError('VALIDATION', 'Please check the form', 400, { amount: 'Too much' });
    expect(refusalMessages(refusal, FIELDS)).toEqual({
      fieldErrors: { amount: 'Too much' },
      formError: null,
    });
  });

  it('puts a field the station names its own way under the form’s field of that name', () => {
    const refusal = new ApiError('VALIDATION', 'Please check the form', 400, {
      withPwd: 'Six digits',
      oldWithPwd: 'Required',
    });
    expect(refusalMessages(refusal, FIELDS, { withPwd: 'password', oldWithPwd: 'oldPassword' })).toEqual({
      fieldErrors: { password: 'Six digits', oldPassword: 'Required' },
      formError: null,
    });
  });

  it('shows the refusal as the form’s message when it names no field of the form', () => {
    const refusal = new ApiError('VALIDATION', 'Please check the form', 400, { withPwd: 'Six digits' });
    expect(refusalMessages(refusal, FIELDS)).toEqual({ fieldErrors: {}, formError: 'Please check the form' });
  });

  it('puts a code about one field under it, though the station names no field', () => {
    const refusal = new ApiError('BAD_WITHDRAW_PASSWORD', 'Wrong withdrawal password', 400);
    expect(refusalMessages(refusal, FIELDS, {}, { BAD_WITHDRAW_PASSWORD: 'password' })).toEqual({
      fieldErrors: { password: 'Wrong withdrawal password' },
      formError: null,
    });
    expect(refusalMessages(refusal, FIELDS)).toEqual({
      fieldErrors: {},
      formError: 'Wrong withdrawal password',
    });
  });
});
