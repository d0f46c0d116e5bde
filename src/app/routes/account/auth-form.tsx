import { useState } from 'react';
import { useI18nContext } from '../../../../locales/i18n-react';
import { checkPhone } from '../../../shared/validation';
import { useStationMutation } from '../../api/station-query';
import { FormField } from '../../components/FormField';
import { showAlert } from '../../state/alert';
import { validationMessage } from '../../forms/form-errors';
import { DEFAULT_RESEND_SECONDS, useCountdown } from './use-countdown';

type SmsCall = 'POST /api/sms/sendRegSms.do' | 'POST /api/sms/sendForgetSms.do';

type Change = (event: { target: { value: string } }) => void;

/** What the SMS code field needs of its form (useForm's, with a phone and a code). */
interface CodeForm {
  values: { phone: string; code: string };
  errors: { phone?: string; code?: string };
  change(field: 'code'): Change;
  setError(field: 'phone', message: string): void;
}

/**
 * The SMS code field of a form with a phone and a code: the send button counts down to a resend, and the
 * test station's demo SMS gateway's code is shown and filled in.
 */
export function SmsCodeField({ path, form }: { path: SmsCall; form: CodeForm }) {
  const { LL } = useI18nContext();
  const [resendAt, setResendAt] = useState(0);
  const [demoCode, setDemoCode] = useState<string | null>(null);
  const secondsLeft = useCountdown(resendAt);
  // A station mutation: its pending state is the button's "sending", one tap sends once.
  const sms = useStationMutation(path, {
    onSuccess: (sent) => {
      setResendAt(Date.now() + (sent.ttlSeconds || DEFAULT_RESEND_SECONDS) * 1000);
      setDemoCode(sent.demoCode ?? null);
      if (sent.demoCode) form.change('code')({ target: { value: sent.demoCode } });
      else showAlert(LL.auth.codeSent(), 'success');
    },
    onError: (apiError) => form.setError('phone', apiError.fields?.phone ?? apiError.message),
  });
  const sending = sms.isPending;

  const send = () => {
    const phoneError = validationMessage(LL, checkPhone(form.values.phone));
    if (phoneError) {
      form.setError('phone', phoneError);
      return;
    }
    if (!sending) sms.mutate({ phone: form.values.phone.trim() });
  };

  return (
    <FormField
      label={LL.auth.code()}
      name="code"
      type="text"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      placeholder={LL.auth.codePlaceholder()}
      value={form.values.code}
      error={form.errors.code}
      onChange={form.change('code')}
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
          onClick={() => void send()}
        >
          {secondsLeft > 0 ? LL.auth.resendIn({ seconds: secondsLeft }) : LL.auth.sendCode()}
        </button>
      }
    />
  );
}

/** The phone number field of the sign-in forms. */
export function PhoneField(props: { value: string; error: string | undefined; onChange: Change }) {
  const { LL } = useI18nContext();
  return (
    <FormField
      label={LL.auth.phone()}
      name="phone"
      type="tel"
      inputMode="numeric"
      autoComplete="tel"
      maxLength={11}
      placeholder={LL.auth.phonePlaceholder()}
      {...props}
    />
  );
}

/** The login password field (the current password). */
export function PasswordField(props: { value: string; error: string | undefined; onChange: Change }) {
  const { LL } = useI18nContext();
  return (
    <FormField
      label={LL.auth.password()}
      name="password"
      type="password"
      autoComplete="current-password"
      maxLength={32}
      placeholder={LL.auth.passwordPlaceholder()}
      {...props}
    />
  );
}

/** What the new-password fields need of their form (useForm's, with a password and its confirmation). */
interface NewPasswordForm {
  values: { password: string; confirm: string };
  errors: { password?: string; confirm?: string };
  change(field: 'password' | 'confirm'): Change;
}

/** A new login password and its confirmation (register, reset). */
export function NewPasswordFields({ form, label }: { form: NewPasswordForm; label: string }) {
  const { LL } = useI18nContext();
  const common = { type: 'password', autoComplete: 'new-password', maxLength: 32 } as const;
  return (
    <>
      <FormField
        {...common}
        label={label}
        name="password"
        placeholder={LL.auth.passwordPlaceholder()}
        value={form.values.password}
        error={form.errors.password}
        onChange={form.change('password')}
      />
      <FormField
        {...common}
        label={LL.auth.confirm()}
        name="confirm"
        placeholder={LL.auth.confirmPlaceholder()}
        value={form.values.confirm}
        error={form.errors.confirm}
        onChange={form.change('confirm')}
      />
    </>
  );
}
