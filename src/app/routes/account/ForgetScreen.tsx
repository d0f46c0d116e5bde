import { Link, useNavigate } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import {
  checkPassword,
  checkPasswordConfirm,
  checkPhone,
  checkSmsCode,
  normalizePassword,
} from '../../../shared/validation';
import { useStationMutation } from '../../api/station-query';
import { FormSubmit } from '../../components/FormSubmit';
import { showAlert } from '../../state/alert';
import { NewPasswordFields, PhoneField, SmsCodeField } from './auth-form';
import { useForm } from '../../forms/use-form';
import { validationMessage } from '../../forms/form-errors';

type ForgetField = 'phone' | 'code' | 'password' | 'confirm';

/** /forget: a forgotten login password, reset with an SMS code to the registered phone. */
export function ForgetScreen() {
  const { LL } = useI18nContext();
  const navigate = useNavigate();
  const form = useForm<ForgetField>({
    initial: { phone: '', code: '', password: '', confirm: '' },
    validate: (values) => ({
      phone: validationMessage(LL, checkPhone(values.phone)),
      code: validationMessage(LL, checkSmsCode(values.code)),
      password: validationMessage(LL, checkPassword(values.password)),
      confirm: validationMessage(LL, checkPasswordConfirm(values.password, values.confirm)),
    }),
  });
  const { values, errors, change } = form;
  const reset = useStationMutation('POST /api/user/updatePwd.do');

  const onSubmit = form.handleSubmit(async (values) => {
    await reset.mutateAsync({
      phone: values.phone.trim(),
      code: values.code.trim(),
      password: normalizePassword(values.password),
    });
    showAlert(LL.acct.passwordReset(), 'success');
    await navigate({ to: '/login' });
  });

  return (
    <form className="auth-form" onSubmit={onSubmit} noValidate>
      <h2 className="auth-heading">{LL.titles.forgotPassword()}</h2>
      <PhoneField value={values.phone} error={errors.phone} onChange={change('phone')} />
      <SmsCodeField path="POST /api/sms/sendForgetSms.do" form={form} />
      <NewPasswordFields form={form} label={LL.acct.newPassword()} />
      <FormSubmit
        formError={form.formError}
        busy={form.busy}
        label={LL.acct.resetPassword()}
        testId="forget-submit"
      />
      <p className="auth-switch">
        <Link to="/login">{LL.auth.toLogin()}</Link>
      </p>
    </form>
  );
}
