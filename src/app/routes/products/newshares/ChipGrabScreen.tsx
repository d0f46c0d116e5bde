/**
 * /qingchouDetail?code=: chip-grab placement of an issue (buyNewStockQc.do): lots at the placement price,
 * first come first served until the placement is gone, paid at once from the newstock account.
 */
import { Link } from '@tanstack/react-router';
import { useI18nContext } from '../../../../../locales/i18n-react';
import type { NewIssue, NewShareSubscription } from '../../../../shared/api/newshares';
import { checkLots } from '../../../../shared/validation';
import { refreshUser } from '../../../api/account';
import { useStationMutation } from '../../../api/station-query';
import { FormField } from '../../../components/FormField';
import { showAlert } from '../../../state/alert';
import { lotsMessage } from '../../../forms/form-errors';
import { useForm } from '../../../forms/use-form';
import { FormSubmit } from '../../../components/FormSubmit';
import { InfoRow, useFreshUser, useMoneyText } from '../../../components/record-parts';
import { PhaseTag, SubscriptionRecord, shanghaiTime, useIssueWithMine } from './newshare-parts';
import '../../../components/wallet.css';
import './newshares.css';

export function ChipGrabScreen() {
  const { LL } = useI18nContext();
  const shown = useIssueWithMine('placement');
  if (shown.view) return shown.view;
  const { issue, latest: grabbed, changed } = shown;
  return (
    <div className="wallet-screen newshares-screen" data-testid="chip-grab">
      <p className="guide-text">{LL.newshares.chipGrabNote()}</p>
      <PlacementSummary issue={issue} />
      {grabbed ? (
        <ul className="record-list">
          <SubscriptionRecord subscription={grabbed} onChange={changed} linkIssue={false} />
        </ul>
      ) : issue.phase === 'subscribing' && issue.placementLeft > 0 ? (
        <GrabForm issue={issue} onDone={changed} />
      ) : (
        <p className="guide-text" data-testid="grab-closed">
          {issue.placementLeft === 0
            ? LL.newshares.soldOut()
            : issue.phase === 'upcoming'
              ? LL.newshares.opensOn({ date: issue.subscribeDate })
              : LL.newshares.windowClosed()}
        </p>
      )}
    </div>
  );
}

function PlacementSummary({ issue }: { issue: NewIssue }) {
  const { LL } = useI18nContext();
  const money = useMoneyText();
  return (
    <section className="summary-card">
      <div className="record-head">
        <Link to="/newsharesDetail" search={{ code: issue.code }}>
          <strong>
            {issue.name} <span className="muted num">{issue.code}</span>
          </strong>
        </Link>
        <PhaseTag phase={issue.phase} />
      </div>
      <InfoRow label={LL.newshares.placementPrice()}>
        <span className="num">{money(issue.placementPrice)}</span>
      </InfoRow>
      <InfoRow label={LL.newshares.issuePrice()}>
        <span className="num">{money(issue.issuePrice)}</span>
      </InfoRow>
      <InfoRow label={LL.newshares.placementLeft()}>
        <span className="num" data-testid="placement-left">
          {issue.placementLeft} / {issue.placementLots}
        </span>
      </InfoRow>
      <InfoRow label={LL.newshares.perUserCap()}>
        <span className="num">{LL.newshares.lotsValue({ lots: issue.perUserCap })}</span>
      </InfoRow>
      <InfoRow label={LL.newshares.subscribeWindow()}>
        <span className="num">
          {shanghaiTime(issue.subscribeOpensAt)} – {shanghaiTime(issue.subscribeClosesAt).slice(11)}
        </span>
      </InfoRow>
      <InfoRow label={LL.newshares.listingDate()}>
        <span className="num">{issue.listingDate}</span>
      </InfoRow>
    </section>
  );
}

function GrabForm({ issue, onDone }: { issue: NewIssue; onDone: (s: NewShareSubscription) => void }) {
  const { LL } = useI18nContext();
  const money = useMoneyText();
  const { user } = useFreshUser();
  const max = Math.min(issue.perUserCap, issue.placementLeft);
  const grab = useStationMutation('POST /user/buyNewStockQc.do', {
    onSuccess: (grabbed) =>
      void refreshUser()
        .catch(() => undefined)
        .then(() => {
          showAlert(LL.newshares.grabbedDone({ lots: grabbed.lots }), 'success');
          onDone(grabbed);
        }),
    onError: (apiError) => form.showRefusal(apiError),
  });
  const form = useForm<'lots'>({
    initial: { lots: String(Math.min(1, max)) },
    validate: ({ lots }) => ({ lots: lotsMessage(LL, checkLots(lots.trim(), max), max) }),
    sending: grab.isPending,
  });
  const n = Number(form.values.lots);
  const cost = Number.isFinite(n) ? n * issue.sharesPerLot * issue.placementPrice : 0;
  const available = user?.accounts.find((a) => a.type === 'newstock')?.available ?? 0;

  const onSubmit = form.handleSubmit(({ lots }) => grab.mutate({ code: issue.code, lots: Number(lots) }));

  return (
    <form className="wallet-form summary-card" onSubmit={onSubmit} noValidate data-testid="grab-form">
      <FormField
        label={LL.newshares.lots()}
        name="lots"
        inputMode="numeric"
        autoComplete="off"
        value={form.values.lots}
        error={form.errors.lots}
        hint={LL.newshares.lotsHint({ max, shares: issue.sharesPerLot })}
        onChange={(event) => form.setValue('lots', event.target.value.replace(/[^\d]/g, '').slice(0, 4))}
      />
      <InfoRow label={LL.newshares.amountDue()}>
        <span className="num" data-testid="grab-cost">
          {money(cost, 'CNY')}
        </span>
      </InfoRow>
      <InfoRow label={LL.newshares.newstockAvailable()}>
        <span className="num">{money(available, 'CNY')}</span>
      </InfoRow>
      {cost > available && (
        <p className="muted small">
          <Link to="/transfer">{LL.newshares.transferFunds()}</Link>
        </p>
      )}
      <FormSubmit
        formError={form.formError}
        busy={form.busy}
        label={LL.newshares.grab()}
        testId="grab-submit"
      />
    </form>
  );
}
