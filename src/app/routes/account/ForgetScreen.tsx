import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import {
  checkPassword,
  checkPasswordConfirm,
  checkPhone,
  checkSmsCode,
  normalizePassword,
} from '../../../shared/validation';
import { call, toApiError } from '../../api/client';
import { FormField } from '../../components/FormField';
import { showAlert } from '../../state/alert';
import { compact, serverErrors, validationMessage, type FieldErrors } from './form-errors';
import { DEFAULT_RESEND_SECONDS, useCountdown } from './use-countdown';

type ForgetField = 'phone' | 'code' | 'password' | 'confirm';
const FIELDS: readonly ForgetField[] = ['phone', 'code', 'password', 'confirm'];

/** /forget: a forgotten login password, reset with an SMS code to the registered phone. */
export function ForgetScreen() {
  const { LL } = useI18nContext();
  const navigate = useNavigate();
  const [values, setValues] = useState<Record<ForgetField, string>>({
    phone: '',
    code: '',
    password: '',
    confirm: '',
  });
  const [errors, setErrors] = useState<FieldErrors<ForgetField>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sending, setSending] = useState(false);
  const [resendAt, setResendAt] = useState(0);
  const [demoCode, setDemoCode] = useState<string | null>(null);
  const secondsLeft = useCountdown(resendAt);

  const change = (field: ForgetField) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((prev) => ({ ...prev, [field]: value }));
    setErrors((prev) => ({ ...prev, [field]: undefined }));
  };

  const sendCode = async () => {
    const phoneError = validationMessage(LL, checkPhone(values.phone));
    if (phoneError) {
      setErrors((prev) => ({ ...prev, phone: phoneError }));
      return;
    }
    setSending(true);
    try {
      const sent = await call('POST /api/sms/sendForgetSms.do', { phone: values.phone.trim() });
      setResendAt(Date.now() + (sent.ttlSeconds || DEFAULT_RESEND_SECONDS) * 1000);
      if (sent.demoCode) {
        setDemoCode(sent.demoCode);
        setValues((prev) => ({ ...prev, code: sent.demoCode ?? prev.code }));
        setErrors((prev) => ({ ...prev, code: undefined }));
      } else {
        setDemoCode(null);
        showAlert(LL.auth.codeSent(), 'success');
      }
    } catch (error) {
      const apiError = toApiError(error);
      setErrors((prev) => ({ ...prev, phone: apiError.fields?.phone ?? apiError.message }));
    } finally {
      setSending(false);
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = compact<ForgetField>({
      phone: validationMessage(LL, checkPhone(values.phone)),
      code: validationMessage(LL, checkSmsCode(values.code)),
      password: validationMessage(LL, checkPassword(values.password)),
      confirm: validationMessage(LL, checkPasswordConfirm(values.password, values.confirm)),
    });
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await call('POST /api/user/updatePwd.do', {
        phone: values.phone.trim(),
        code: values.code.trim(),
        password: normalizePassword(values.password),
      });
      showAlert(LL.acct.passwordReset(), 'success');
      await navigate({ to: '/login' });
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
      <h2 className="auth-heading">{LL.titles.forgotPassword()}</h2>
      <FormField
        label={LL.auth.phone()}
        name="phone"
        type="tel"
        inputMode="numeric"
        autoComplete="tel"
        maxLength={11}
        placeholder={LL.auth.phonePlaceholder()}
        value={values.phone}
        error={errors.phone}
        onChange={change('phone')}
      />
      <FormField
        label={LL.auth.code()}
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        placeholder={LL.auth.codePlaceholder()}
        value={values.code}
        error={errors.code}
        onChange={change('code')}
        hint={
          demoCode ? (
            <span className="demo-code" data-testid="demo-code">
              {LL.auth.demoCode({ code: demoCode })}
            </span>
          ) : undefined
        }
        addon={
          <button
            type="button"
            className="button secondary send-code"
            data-testid="send-code"
            disabled={sending || secondsLeft > 0}
            onClick={() => void sendCode()}
          >
            {secondsLeft > 0 ? LL.auth.resendIn({ seconds: secondsLeft }) : LL.auth.sendCode()}
          </button>
        }
      />
      <FormField
        label={LL.acct.newPassword()}
        name="password"
        type="password"
        autoComplete="new-password"
        maxLength={32}
        placeholder={LL.auth.passwordPlaceholder()}
        value={values.password}
        error={errors.password}
        onChange={change('password')}
      />
      <FormField
        label={LL.auth.confirm()}
        name="confirm"
        type="password"
        autoComplete="new-password"
        maxLength={32}
        placeholder={LL.auth.confirmPlaceholder()}
        value={values.confirm}
        error={errors.confirm}
        onChange={change('confirm')}
      />
      {formError && (
        <p className="form-error" role="alert" data-testid="form-error">
          {formError}
        </p>
      )}
      <button type="submit" className="button primary block" disabled={busy} data-testid="forget-submit">
        {busy ? LL.common.submitting() : LL.acct.resetPassword()}
      </button>
      <p className="auth-switch">
        <Link to="/login">{LL.auth.toLogin()}</Link>
      </p>
    </form>
  );
}
