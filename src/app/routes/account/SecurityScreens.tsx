/** Passwords (spec §2 /loginPassword, /setPassword) and the account-opening checklist (/openaccount). */
import { Link, useNavigate } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import {
  checkNewPasswordConfirm,
  checkPassword,
  checkWithdrawPassword,
  normalizePassword,
} from '../../../shared/validation';
import { refreshUser } from '../../api/account';
import { useStationMutation } from '../../api/station-query';
import { FormField } from '../../components/FormField';
import { FormSubmit } from '../../components/FormSubmit';
import { LoggedOutPrompt } from '../../components/LoggedOutPrompt';
import { ErrorState, Loading } from '../../components/StatusViews';
import { showAlert } from '../../state/alert';
import { Chevron, useFreshUser } from '../../components/record-parts';
import { validationMessage } from '../../forms/form-errors';
import { useForm } from '../../forms/use-form';
import '../../components/wallet.css';
import { useLoggedIn } from '../../state/use-logged-in';

type PasswordField = 'oldPassword' | 'password' | 'confirm';
const FIELDS: readonly PasswordField[] = ['oldPassword', 'password', 'confirm'];

/** /loginPassword: old and new login password; the station ends the other sessions. */
export function LoginPasswordScreen() {
  const { LL } = useI18nContext();
  if (!useLoggedIn())
    return <LoggedOutPrompt title={LL.user.loggedOutTitle()} text={LL.loginPrompt.text()} />;
  return <PasswordForm kind="login" hasOld />;
}

/** /setPassword: set the 6-digit withdrawal password, or change it with the current one. */
export function WithdrawPasswordScreen() {
  const { LL } = useI18nContext();
  const loggedIn = useLoggedIn();
  if (!loggedIn) return <LoggedOutPrompt title={LL.user.loggedOutTitle()} text={LL.loginPrompt.text()} />;
  return <WithdrawPasswordGate />;
}

function WithdrawPasswordGate() {
  const { user, loading, error, reload } = useFreshUser();
  if (!user)
    return loading ? <Loading /> : error ? <ErrorState error={error} onRetry={reload} /> : <Loading />;
  return <PasswordForm kind="withdraw" hasOld={user.hasWithdrawPassword} />;
}

function PasswordForm({ kind, hasOld }: { kind: 'login' | 'withdraw'; hasOld: boolean }) {
  const { LL } = useI18nContext();
  const navigate = useNavigate();
  const check = kind === 'login' ? checkPassword : checkWithdrawPassword;
  const form = useForm<PasswordField>({
    initial: { oldPassword: '', password: '', confirm: '' },
    validate: (values) => ({
      // spec §5: "enter old and new passwords".
      oldPassword: hasOld && normalizePassword(values.oldPassword) === '' ? LL.acct.enterOldAndNew() : null,
      password: validationMessage(LL, check(values.password)),
      confirm: validationMessage(LL, checkNewPasswordConfirm(values.password, values.confirm)),
    }),
    stationFields: FIELDS,
    // The withdrawal password's call names its fields the station's way.
    stationNames: { withPwd: 'password', oldWithPwd: 'oldPassword' },
  });
  const { values, errors, change } = form;
  // Station mutations: the user's record they change refreshes by their invalidation (query-keys.ts).
  const loginPassword = useStationMutation('POST /user/updatePwd.do');
  const withdrawPassword = useStationMutation('POST /user/insertWithPwd.do');

  const onSubmit = form.handleSubmit(async (values) => {
    if (kind === 'login') {
      await loginPassword.mutateAsync({
        oldPassword: normalizePassword(values.oldPassword),
        password: normalizePassword(values.password),
        confirmPassword: normalizePassword(values.confirm),
      });
    } else {
      await withdrawPassword.mutateAsync({
        withPwd: values.password.trim(),
        ...(hasOld ? { oldWithPwd: values.oldPassword.trim() } : {}),
      });
    }
    await refreshUser().catch(() => undefined);
    showAlert(LL.acct.passwordSaved(), 'success');
    await navigate({ to: kind === 'withdraw' ? '/withdraw' : '/setting' });
  });

  const numeric = kind === 'withdraw' ? ({ inputMode: 'numeric', maxLength: 6 } as const) : { maxLength: 32 };
  return (
    <form className="wallet-screen wallet-form" onSubmit={onSubmit} noValidate>
      {kind === 'withdraw' && <p className="guide-text">{LL.acct.withdrawPasswordNote()}</p>}
      {hasOld && (
        <FormField
          label={LL.acct.oldPassword()}
          name="oldPassword"
          type="password"
          autoComplete="current-password"
          value={values.oldPassword}
          error={errors.oldPassword}
          onChange={change('oldPassword')}
          {...numeric}
        />
      )}
      <FormField
        label={LL.acct.newPassword()}
        name="password"
        type="password"
        autoComplete="new-password"
        placeholder={
          kind === 'withdraw' ? LL.wallet.withdrawPasswordPlaceholder() : LL.auth.passwordPlaceholder()
        }
        value={values.password}
        error={errors.password}
        onChange={change('password')}
        {...numeric}
      />
      <FormField
        label={LL.auth.confirm()}
        name="confirm"
        type="password"
        autoComplete="new-password"
        value={values.confirm}
        error={errors.confirm}
        onChange={change('confirm')}
        {...numeric}
      />
      <FormSubmit
        formError={form.formError}
        busy={form.busy}
        label={LL.acct.save()}
        testId="password-submit"
      />
      {kind === 'login' && (
        <Link to="/forget" className="button ghost block">
          {LL.titles.forgotPassword()}
        </Link>
      )}
    </form>
  );
}

/** /openaccount: the steps from a new account to one that can deposit, trade and withdraw. */
export function OpenAccountScreen() {
  const { LL } = useI18nContext();
  if (!useLoggedIn()) {
    return (
      <div className="wallet-screen">
        <p className="guide-text">{LL.acct.openAccountIntro()}</p>
        <Link to="/register" className="button primary block">
          {LL.common.register()}
        </Link>
        <Link to="/login" className="button secondary block">
          {LL.common.login()}
        </Link>
      </div>
    );
  }
  return <OpenAccountSteps />;
}

function OpenAccountSteps() {
  const { LL } = useI18nContext();
  const { user, loading, error, reload } = useFreshUser();
  if (!user)
    return loading ? <Loading /> : error ? <ErrorState error={error} onRetry={reload} /> : <Loading />;
  const steps = [
    { to: '/authentication' as const, label: LL.titles.kyc(), done: user.kycStatus === 'passed' },
    { to: '/bankCard' as const, label: LL.titles.bankCard(), done: user.hasBankCard },
    { to: '/setPassword' as const, label: LL.titles.withdrawPassword(), done: user.hasWithdrawPassword },
    { to: '/recharge' as const, label: LL.titles.recharge(), done: false },
  ];
  return (
    <div className="wallet-screen" data-testid="open-account">
      <p className="guide-text">{LL.acct.openAccountIntro()}</p>
      <nav className="menu-list">
        {steps.map((step, index) => (
          <Link key={step.to} to={step.to} className="menu-item">
            <span>
              {index + 1}. {step.label}
            </span>
            <span className="muted small">{step.done ? LL.wallet.done() : LL.wallet.notYet()}</span>
            <Chevron />
          </Link>
        ))}
      </nav>
    </div>
  );
}
