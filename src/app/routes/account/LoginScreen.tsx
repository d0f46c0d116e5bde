import { Link, useNavigate } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import { checkPassword, checkPhone } from '../../../shared/validation';
import { login } from '../../api/account';
import { FormSubmit } from '../../components/FormSubmit';
import { showAlert } from '../../state/alert';
import { PasswordField, PhoneField } from './auth-form';
import { useForm } from '../../forms/use-form';
import { validationMessage } from '../../forms/form-errors';

type LoginField = 'phone' | 'password';

/** /login: phone and password; on success the session is stored and the user lands on /user. */
export function LoginScreen() {
  const { LL } = useI18nContext();
  const navigate = useNavigate();
  const form = useForm<LoginField>({
    initial: { phone: '', password: '' },
    validate: (values) => ({
      phone: validationMessage(LL, checkPhone(values.phone)),
      password: validationMessage(LL, checkPassword(values.password)),
    }),
  });
  const { values, errors, change } = form;

  const onSubmit = form.handleSubmit(async (values) => {
    await login(values.phone, values.password);
    showAlert(LL.auth.loginSuccess(), 'success');
    await navigate({ to: '/user' });
  });

  return (
    <form className="auth-form" onSubmit={onSubmit} noValidate>
      <h2 className="auth-heading">{LL.auth.loginHeading()}</h2>
      <PhoneField value={values.phone} error={errors.phone} onChange={change('phone')} />
      <PasswordField value={values.password} error={errors.password} onChange={change('password')} />
      <p className="auth-forgot">
        <Link to="/forget" data-testid="link-forget">
          {LL.auth.forgotPassword()}
        </Link>
      </p>
      <FormSubmit
        formError={form.formError}
        busy={form.busy}
        label={LL.auth.loginSubmit()}
        testId="login-submit"
      />
      <p className="auth-switch">
        {LL.auth.noAccount()}{' '}
        <Link to="/register" data-testid="link-register">
          {LL.auth.toRegister()}
        </Link>
      </p>
    </form>
  );
}
