import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import { checkPassword, checkPhone } from '../../../shared/validation';
import { login } from '../../api/account';
import { FormField } from '../../components/FormField';
import { showAlert } from '../../state/alert';
import { compact, serverErrors, validationMessage, type FieldErrors } from './form-errors';

type LoginField = 'phone' | 'password';
const FIELDS: readonly LoginField[] = ['phone', 'password'];

/** /login: phone and password; on success the session is stored and the user lands on /user. */
export function LoginScreen() {
  const { LL } = useI18nContext();
  const navigate = useNavigate();
  const [phone, setPhone] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors<LoginField>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = compact<LoginField>({
      phone: validationMessage(LL, checkPhone(phone)),
      password: validationMessage(LL, checkPassword(password)),
    });
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await login(phone, password);
      showAlert(LL.auth.loginSuccess(), 'success');
      await navigate({ to: '/user' });
    } catch (error) {
      const { fieldErrors, formError: message } = serverErrors(error, FIELDS);
      setErrors(fieldErrors);
      setFormError(message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="auth-form" onSubmit={onSubmit} noValidate>
      <h2 className="auth-heading">{LL.auth.loginHeading()}</h2>
      <FormField
        label={LL.auth.phone()}
        name="phone"
        type="tel"
        inputMode="numeric"
        autoComplete="tel"
        maxLength={11}
        placeholder={LL.auth.phonePlaceholder()}
        value={phone}
        error={errors.phone}
        onChange={(event) => {
          setPhone(event.target.value);
          setErrors((prev) => ({ ...prev, phone: undefined }));
        }}
      />
      <FormField
        label={LL.auth.password()}
        name="password"
        type="password"
        autoComplete="current-password"
        maxLength={32}
        placeholder={LL.auth.passwordPlaceholder()}
        value={password}
        error={errors.password}
        onChange={(event) => {
          setPassword(event.target.value);
          setErrors((prev) => ({ ...prev, password: undefined }));
        }}
      />
      {formError && (
        <p className="form-error" role="alert" data-testid="form-error">
          {formError}
        </p>
      )}
      <button type="submit" className="button primary block" disabled={busy} data-testid="login-submit">
        {busy ? LL.common.submitting() : LL.auth.loginSubmit()}
      </button>
      <p className="auth-switch">
        {LL.auth.noAccount()}{' '}
        <Link to="/register" data-testid="link-register">
          {LL.auth.toRegister()}
        </Link>
      </p>
    </form>
  );
}
