import { useState } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import { checkPassword, checkPasswordConfirm, checkPhone, checkSmsCode } from '../../../shared/validation';
import { register } from '../../api/account';
import { useStationQuery } from '../../api/station-query';
import { FormField } from '../../components/FormField';
import { FormSubmit } from '../../components/FormSubmit';
import { showAlert } from '../../state/alert';
import { NewPasswordFields, PhoneField, SmsCodeField } from './auth-form';
import { useForm } from '../../forms/use-form';
import { validationMessage } from '../../forms/form-errors';

type InputField = 'phone' | 'password' | 'confirm' | 'code' | 'inviteCode';
type RegisterField = InputField | 'agree';
const FIELDS: readonly RegisterField[] = ['phone', 'password', 'confirm', 'code', 'inviteCode'];

/**
 * /register: phone, password twice, the SMS code and an invitation code, required or optional as the
 * station says (getProductSetting.do `registration`). The test station's demo SMS gateway returns the code,
 * which is shown and filled in.
 */
export function RegisterScreen() {
  const { LL } = useI18nContext();
  const navigate = useNavigate();
  const [agreed, setAgreed] = useState(false);
  const inviteRequired =
    useStationQuery('GET /api/admin/getProductSetting.do', {}).data?.registration.inviteCodeRequired ?? false;
  const form = useForm<InputField, RegisterField>({
    initial: { phone: '', password: '', confirm: '', code: '', inviteCode: '' },
    validate: (values) => ({
      phone: validationMessage(LL, checkPhone(values.phone)),
      password: validationMessage(LL, checkPassword(values.password)),
      confirm: validationMessage(LL, checkPasswordConfirm(values.password, values.confirm)),
      code: validationMessage(LL, checkSmsCode(values.code)),
      inviteCode: inviteRequired && values.inviteCode.trim() === '' ? LL.validation.inviteCodeEmpty() : null,
      agree: agreed ? null : LL.acct.agreeRequired(),
    }),
    stationFields: FIELDS,
  });
  const { values, errors, change } = form;

  const onSubmit = form.handleSubmit(async (values) => {
    await register(values);
    showAlert(LL.auth.registerSuccess(), 'success');
    await navigate({ to: '/user' });
  });

  return (
    <form className="auth-form" onSubmit={onSubmit} noValidate>
      <h2 className="auth-heading">{LL.auth.registerHeading()}</h2>
      <PhoneField value={values.phone} error={errors.phone} onChange={change('phone')} />
      <NewPasswordFields form={form} label={LL.auth.password()} />
      <SmsCodeField path="POST /api/sms/sendRegSms.do" form={form} />
      <FormField
        label={inviteRequired ? LL.auth.inviteCodeRequired() : LL.auth.inviteCode()}
        name="inviteCode"
        type="text"
        autoComplete="off"
        maxLength={32}
        placeholder={
          inviteRequired ? LL.auth.inviteCodeRequiredPlaceholder() : LL.auth.inviteCodePlaceholder()
        }
        value={values.inviteCode}
        error={errors.inviteCode}
        onChange={change('inviteCode')}
      />
      <div className={errors.agree ? 'field agree-field has-error' : 'field agree-field'}>
        <label className="agree-label">
          <input
            type="checkbox"
            name="agree"
            data-testid="agree"
            checked={agreed}
            onChange={(event) => {
              setAgreed(event.target.checked);
              form.setError('agree', undefined);
            }}
          />
          <span>
            {LL.acct.agreePrefix()} <Link to="/aggre">{LL.titles.userAgreement()}</Link> ·{' '}
            <Link to="/agree">{LL.titles.privacyPolicy()}</Link>
          </span>
        </label>
        {errors.agree && (
          <p className="field-error" data-testid="error-agree">
            {errors.agree}
          </p>
        )}
      </div>
      <FormSubmit
        formError={form.formError}
        busy={form.busy}
        label={LL.auth.registerSubmit()}
        testId="register-submit"
      />
      <p className="auth-switch">
        {LL.auth.haveAccount()}{' '}
        <Link to="/login" data-testid="link-login">
          {LL.auth.toLogin()}
        </Link>
      </p>
    </form>
  );
}
