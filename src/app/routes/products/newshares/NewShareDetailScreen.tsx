/**
 * /newsharesDetail?code=: one issue (newStockList.do with its code), subscribing to it (add.do), the
 * user's subscription with its pay action, and the verifiable draw: the seed's hash, later the seed, and
 * the winners recomputed here by the same pure function the station used (src/shared/newshare-draw.ts).
 */
import { useState } from 'react';
import { useI18nContext } from '../../../../../locales/i18n-react';
import type { NewIssue, NewShareSubscription } from '../../../../shared/api/newshares';
import { allocationNumbers, drawSeedHash, drawWinners } from '../../../../shared/newshare-draw';
import { checkLots } from '../../../../shared/validation';
import { useStationMutation } from '../../../api/station-query';
import { FormField } from '../../../components/FormField';
import { showAlert } from '../../../state/alert';
import { lotsMessage } from '../../../forms/form-errors';
import { useForm } from '../../../forms/use-form';
import { FormSubmit } from '../../../components/FormSubmit';
import { useMoneyText } from '../../../components/record-parts';
import { IssueFacts, PhaseTag, SubscriptionRecord, useIssueWithMine } from './newshare-parts';
import '../../../components/wallet.css';
import './newshares.css';

export function NewShareDetailScreen() {
  const { LL } = useI18nContext();
  const shown = useIssueWithMine('lottery');
  if (shown.view) return shown.view;
  const { issue, latest: subscription, changed } = shown;

  return (
    <div className="wallet-screen newshares-screen" data-testid="newshare-detail">
      <section className="summary-card">
        <div className="record-head">
          <strong>
            {issue.name} <span className="muted num">{issue.code}</span>
          </strong>
          <PhaseTag phase={issue.phase} />
        </div>
        <IssueFacts issue={issue} full />
      </section>
      {subscription ? (
        <ul className="record-list">
          <SubscriptionRecord subscription={subscription} onChange={changed} linkIssue={false} />
        </ul>
      ) : issue.phase === 'subscribing' ? (
        <SubscribeForm issue={issue} onDone={changed} />
      ) : (
        <p className="guide-text" data-testid="not-subscribing">
          {issue.phase === 'upcoming'
            ? LL.newshares.opensOn({ date: issue.subscribeDate })
            : LL.newshares.windowClosed()}
        </p>
      )}
      <DrawVerification issue={issue} />
    </div>
  );
}

function SubscribeForm({ issue, onDone }: { issue: NewIssue; onDone: (s: NewShareSubscription) => void }) {
  const { LL } = useI18nContext();
  const money = useMoneyText();
  const subscribe = useStationMutation('POST /user/add.do', {
    onSuccess: (subscribed) => {
      showAlert(LL.newshares.subscribedDone(), 'success');
      onDone(subscribed);
    },
    onError: (apiError) => form.showRefusal(apiError),
  });
  const form = useForm<'lots'>({
    initial: { lots: String(issue.perUserCap) },
    validate: ({ lots }) => ({
      lots: lotsMessage(LL, checkLots(lots.trim(), issue.perUserCap), issue.perUserCap),
    }),
    sending: subscribe.isPending,
  });
  const n = Number(form.values.lots);

  const onSubmit = form.handleSubmit(({ lots }) =>
    subscribe.mutate({ code: issue.code, lots: Number(lots) }),
  );

  return (
    <form className="wallet-form summary-card" onSubmit={onSubmit} noValidate data-testid="subscribe-form">
      <FormField
        label={LL.newshares.lots()}
        name="lots"
        inputMode="numeric"
        autoComplete="off"
        value={form.values.lots}
        error={form.errors.lots}
        hint={LL.newshares.lotsHint({ max: issue.perUserCap, shares: issue.sharesPerLot })}
        onChange={(event) => form.setValue('lots', event.target.value.replace(/[^\d]/g, '').slice(0, 4))}
      />
      <p className="muted small">
        {LL.newshares.subscribeNote({
          amount: money(Number.isFinite(n) ? n * issue.sharesPerLot * issue.issuePrice : 0, 'CNY'),
        })}
      </p>
      <FormSubmit
        formError={form.formError}
        busy={form.busy}
        label={LL.newshares.subscribe()}
        testId="subscribe-submit"
      />
    </form>
  );
}

type Check = { ok: boolean; winners: number[] } | null;

/** The published draw and a button that recomputes it here from the seed and the allocation numbers. */
function DrawVerification({ issue }: { issue: NewIssue }) {
  const { LL } = useI18nContext();
  const [check, setCheck] = useState<Check>(null);
  const { draw } = issue;
  const lastNumber = draw.numbersFrom + draw.numbersCount - 1;
  const recompute = () => {
    if (draw.seed === null || draw.winningNumbers === null || draw.winnersCount === null) return;
    const winners = drawWinners(
      draw.seed,
      allocationNumbers(draw.numbersFrom, draw.numbersCount),
      issue.onlineLots,
    );
    const ok =
      drawSeedHash(draw.seed) === draw.seedHash &&
      winners.length === draw.winningNumbers.length &&
      winners.every((n, i) => n === draw.winningNumbers![i]);
    setCheck({ ok, winners });
  };
  return (
    <section className="summary-card draw-card" data-testid="draw-card">
      <h2 className="section-title">{LL.newshares.drawTitle()}</h2>
      <p className="label-small">{LL.newshares.seedHash()}</p>
      <p className="hex num" data-testid="seed-hash">
        {draw.seedHash}
      </p>
      <p className="label-small">{LL.newshares.seed()}</p>
      <p className="hex num" data-testid="seed">
        {draw.seed ?? LL.newshares.seedPending()}
      </p>
      <p className="muted small" data-testid="numbers-range">
        {draw.numbersCount > 0
          ? LL.newshares.numbersRange({ from: draw.numbersFrom, to: lastNumber, count: draw.numbersCount })
          : LL.newshares.noNumbers()}
      </p>
      {draw.winningNumbers !== null && (
        <>
          <p className="muted small">
            {LL.newshares.winnersCount({ count: draw.winnersCount ?? 0, lots: issue.onlineLots })}
          </p>
          <p className="num small" data-testid="winning-numbers">
            {draw.winningNumbers.length > 0 ? draw.winningNumbers.join(', ') : '—'}
          </p>
          <button
            type="button"
            className="button secondary block"
            onClick={recompute}
            data-testid="recompute"
          >
            {LL.newshares.recompute()}
          </button>
          {check && (
            <p className={check.ok ? 'verify ok' : 'verify bad'} role="status" data-testid="recompute-result">
              {check.ok ? LL.newshares.recomputeOk() : LL.newshares.recomputeBad()}
            </p>
          )}
        </>
      )}
      <details className="how-to">
        <summary>{LL.newshares.howTitle()}</summary>
        <ol>
          <li>{LL.newshares.howStep1()}</li>
          <li>{LL.newshares.howStep2()}</li>
          <li>{LL.newshares.howStep3()}</li>
          <li>{LL.newshares.howStep4()}</li>
          <li>{LL.newshares.howStep5()}</li>
        </ol>
      </details>
    </section>
  );
}
