import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import { checkPassword, checkPasswordConfirm, checkPhone, checkSmsCode } from '../../../shared/validation';
import { register } from '../../api/account';
import { call, toApiError } from '../../api/client';
import { useCall } from '../../api/use-call';
import { FormField } from '../../components/FormField';
import { showAlert } from '../../state/alert';
import { compact, serverErrors, validationMessage, type FieldErrors } from './form-errors';
import { DEFAULT_RESEND_SECONDS, useCountdown } from './use-countdown';

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
  const [values, setValues] = useState<Record<InputField, string>>({
    phone: '',
    password: '',
    confirm: '',
    code: '',
    inviteCode: '',
  });
  const [errors, setErrors] = useState<FieldErrors<RegisterField>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sending, setSending] = useState(false);
  const [resendAt, setResendAt] = useState(0);
  const [demoCode, setDemoCode] = useState<string | null>(null);
  const [agreed, setAgreed] = useState(false);
  const secondsLeft = useCountdown(resendAt);
  const inviteRequired =
    useCall('GET /api/admin/getProductSetting.do', {}).data?.registration.inviteCodeRequired ?? false;

  const change = (field: InputField) => (event: { target: { value: string } }) => {
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
      const sent = await call('POST /api/sms/sendRegSms.do', { phone: values.phone.trim() });
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
    const found = compact<RegisterField>({
      phone: validationMessage(LL, checkPhone(values.phone)),
      password: validationMessage(LL, checkPassword(values.password)),
      confirm: validationMessage(LL, checkPasswordConfirm(values.password, values.confirm)),
      code: validationMessage(LL, checkSmsCode(values.code)),
      inviteCode: inviteRequired && values.inviteCode.trim() === '' ? LL.validation.inviteCodeEmpty() : null,
      agree: agreed ? null : LL.acct.agreeRequired(),
    });
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await register(values);
      showAlert(LL.auth.registerSuccess(), 'success');
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
      <h2 className="auth-heading">{LL.auth.registerHeading()}</h2>
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
        label={LL.auth.password()}
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
      <FormField
        label={LL.auth.code()}
        name="code"
        type="text"
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
              setErrors((prev) => ({ ...prev, agree: undefined }));
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
      {formError && (
        <p className="form-error" role="alert" data-testid="form-error">
          {formError}
        </p>
      )}
      <button type="submit" className="button primary block" disabled={busy} data-testid="register-submit">
        {busy ? LL.common.submitting() : LL.auth.registerSubmit()}
      </button>
      <p className="auth-switch">
        {LL.auth.haveAccount()}{' '}
        <Link to="/login" data-testid="link-login">
          {LL.auth.toLogin()}
        </Link>
      </p>
    </form>
  );
}
