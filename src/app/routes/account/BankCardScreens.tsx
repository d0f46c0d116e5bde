/**
 * The one bank card (spec §2 /bankCard, /card, /addCard, /bankUpDate; §6 one card per person): shown
 * masked, bound after KYC passed, and changed only when customer service has enabled it — otherwise the
 * station's refusal ("contact customer service") is shown.
 */
import { useEffect } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { BankCard, BankCardInput } from '../../../shared/api/types';
import { checkBankCard } from '../../../shared/validation';
import { refreshUser } from '../../api/account';
import { useStationMutation, useStationQuery } from '../../api/station-query';
import { FormField } from '../../components/FormField';
import { FormSubmit } from '../../components/FormSubmit';
import { LoggedOutPrompt } from '../../components/LoggedOutPrompt';
import { ErrorState, Loading } from '../../components/StatusViews';
import { showAlert } from '../../state/alert';
import { setBankInfo } from '../../state/bank-info';
import { InfoRow, useFreshUser } from '../../components/record-parts';
import { validationMessage } from '../../forms/form-errors';
import { useForm } from '../../forms/use-form';
import '../../components/wallet.css';
import { useLoggedIn } from '../../state/use-logged-in';
import { UserText } from '../../components/UserText';

type CardField = keyof BankCardInput;

/** /bankCard and /card: the bound card, or the way to bind one. */
export function BankCardScreen() {
  const { LL } = useI18nContext();
  const loggedIn = useLoggedIn();
  if (!loggedIn) return <LoggedOutPrompt title={LL.user.loggedOutTitle()} text={LL.loginPrompt.text()} />;
  return <BankCardView />;
}

function BankCardView() {
  const { LL } = useI18nContext();
  const { user } = useFreshUser();
  const card = useStationQuery('GET /user/bank/getBankInfo.do', {});
  useEffect(() => {
    if (card.data !== undefined) setBankInfo(card.data);
  }, [card.data]);
  if (card.loading) return <Loading />;
  if (card.data === undefined) {
    return card.error ? <ErrorState error={card.error} onRetry={card.reload} /> : <Loading />;
  }
  if (card.data === null) {
    const kycPassed = user?.kycStatus === 'passed';
    return (
      <div className="wallet-screen" data-testid="no-card">
        <p className="guide-text">{kycPassed ? LL.identity.noCard() : LL.identity.cardNeedsKyc()}</p>
        {kycPassed ? (
          <Link to="/addCard" className="button primary block" data-testid="to-add-card">
            {LL.titles.addBankCard()}
          </Link>
        ) : (
          <Link to="/authentication" className="button primary block" data-testid="to-kyc">
            {LL.titles.kyc()}
          </Link>
        )}
      </div>
    );
  }
  return (
    <div className="wallet-screen">
      <CardFace card={card.data} />
      <p className="muted small">{LL.identity.oneCardNote()}</p>
      <Link to="/bankUpDate" className="button secondary block" data-testid="to-update-card">
        {LL.titles.updateBankCard()}
      </Link>
    </div>
  );
}

function CardFace({ card }: { card: BankCard }) {
  const { LL } = useI18nContext();
  return (
    <section className="bank-card-face" data-testid="bank-card">
      <strong>
        <UserText text={card.bankName} />
      </strong>
      <span className="muted small">
        <UserText text={card.branch} />
      </span>
      <span className="num card-no" data-testid="card-no">
        {card.cardNoMasked}
      </span>
      <InfoRow label={LL.identity.holder()}>
        {/* spec §5: the holder is the KYC name, in Chinese characters only */}
        <span lang="zh-CN">{card.holder}</span>
      </InfoRow>
    </section>
  );
}

/** /addCard: bind the card (the holder is the KYC name). */
export function AddCardScreen() {
  const { LL } = useI18nContext();
  const loggedIn = useLoggedIn();
  if (!loggedIn) return <LoggedOutPrompt title={LL.user.loggedOutTitle()} text={LL.loginPrompt.text()} />;
  return <CardForm mode="add" />;
}

/** /bankUpDate: change the card; the station refuses unless customer service enabled it. */
export function UpdateCardScreen() {
  const { LL } = useI18nContext();
  const loggedIn = useLoggedIn();
  if (!loggedIn) return <LoggedOutPrompt title={LL.user.loggedOutTitle()} text={LL.loginPrompt.text()} />;
  return <CardForm mode="update" />;
}

/** spec §5: bank name and branch are required; the card number is 1-9 then 14 to 18 digits. */
export function checkCardInput(
  input: BankCardInput,
): Record<CardField, 'required' | 'bankCardInvalid' | null> {
  return {
    bankName: input.bankName.trim() === '' ? 'required' : null,
    branch: input.branch.trim() === '' ? 'required' : null,
    cardNo: checkBankCard(input.cardNo) ? 'bankCardInvalid' : null,
  };
}

function CardForm({ mode }: { mode: 'add' | 'update' }) {
  const { LL } = useI18nContext();
  const navigate = useNavigate();
  const { user } = useFreshUser();
  const form = useForm<CardField>({
    initial: { bankName: '', branch: '', cardNo: '' },
    validate: (values) => {
      const keys = checkCardInput(values);
      return {
        bankName: validationMessage(LL, keys.bankName),
        branch: validationMessage(LL, keys.branch),
        cardNo: validationMessage(LL, keys.cardNo),
      };
    },
  });
  const { values, errors, change } = form;
  // The card and the withdrawal screen's facts refresh by the save's invalidation (query-keys.ts).
  const save = useStationMutation(mode === 'add' ? 'POST /user/bank/add.do' : 'POST /user/bank/update.do');

  const onSubmit = form.handleSubmit(async (values) => {
    const input = {
      bankName: values.bankName.trim(),
      branch: values.branch.trim(),
      cardNo: values.cardNo.replace(/\s+/g, ''),
    };
    const card = await save.mutateAsync(input);
    setBankInfo(card);
    await refreshUser().catch(() => undefined);
    showAlert(LL.identity.cardSaved(), 'success');
    await navigate({ to: '/bankCard' });
  });

  return (
    <form className="wallet-screen wallet-form" onSubmit={onSubmit} noValidate>
      {mode === 'update' && <p className="guide-text">{LL.identity.updateNote()}</p>}
      <InfoRow label={LL.identity.holder()} testId="card-holder">
        {user?.realName ? <span lang="zh-CN">{user.realName}</span> : '—'}
      </InfoRow>
      <FormField
        label={LL.identity.bankName()}
        name="bankName"
        maxLength={64}
        placeholder={LL.identity.bankNamePlaceholder()}
        value={values.bankName}
        error={errors.bankName}
        onChange={change('bankName')}
      />
      <FormField
        label={LL.identity.branch()}
        name="branch"
        maxLength={64}
        placeholder={LL.identity.branchPlaceholder()}
        value={values.branch}
        error={errors.branch}
        onChange={change('branch')}
      />
      <FormField
        label={LL.identity.cardNo()}
        name="cardNo"
        inputMode="numeric"
        autoComplete="cc-number"
        maxLength={23}
        placeholder={LL.identity.cardNoPlaceholder()}
        value={values.cardNo}
        error={errors.cardNo}
        onChange={change('cardNo')}
      />
      <FormSubmit
        formError={form.formError}
        busy={form.busy}
        label={LL.identity.saveCard()}
        testId="card-submit"
      />
      {mode === 'update' && (
        <Link to="/service" className="button ghost block">
          {LL.titles.customerService()}
        </Link>
      )}
    </form>
  );
}
