/**
 * /Subscription: the new share and new bond calendar (newStockList.do) and the chip-grab placements open
 * now (newStockQc.do), with the way to the subscription and winning records.
 */
import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useI18nContext } from '../../../../../locales/i18n-react';
import type { NewIssueType } from '../../../../shared/api/newshares';
import { useStationPages, useStationQuery } from '../../../api/station-query';
import { Tabs } from '../../../components/Tabs';
import { Empty, ErrorState, Loading } from '../../../components/StatusViews';
import { InfoRow, PagedList, useMoneyText } from '../../../components/record-parts';
import { IssueFacts, PhaseTag } from './newshare-parts';
import '../../../components/wallet.css';
import './newshares.css';

type Tab = NewIssueType | 'grab';

export function SubscriptionScreen() {
  const { LL } = useI18nContext();
  const [tab, setTab] = useState<Tab>('share');
  return (
    <div className="wallet-screen newshares-screen">
      <div className="quick-actions">
        <Link to="/sharerecord" className="button secondary" data-testid="to-sharerecord">
          {LL.titles.subscriptionRecords()}
        </Link>
        <Link to="/zhongqianrecord" className="button secondary" data-testid="to-zhongqianrecord">
          {LL.titles.winningRecords()}
        </Link>
      </div>
      <Tabs
        label={LL.titles.subscription()}
        value={tab}
        onChange={setTab}
        items={[
          { key: 'share', label: LL.newshares.shares(), testId: 'tab-share' },
          { key: 'bond', label: LL.newshares.bonds(), testId: 'tab-bond' },
          { key: 'grab', label: LL.newshares.chipGrab(), testId: 'tab-grab' },
        ]}
      />
      {tab === 'grab' ? <PlacementList /> : <Calendar type={tab} />}
    </div>
  );
}

function Calendar({ type }: { type: NewIssueType }) {
  const { LL } = useI18nContext();
  const pages = useStationPages('GET /user/newStockList.do', { type, pageSize: 15 });
  return (
    <PagedList pages={pages} emptyText={LL.newshares.noIssues()} testId="issue-list">
      {(issue) => (
        <li key={issue.code} className="record" data-testid="issue-row" data-code={issue.code}>
          <Link to="/newsharesDetail" search={{ code: issue.code }} className="record-link">
            <div className="record-head">
              <strong>
                {issue.name} <span className="muted num">{issue.code}</span>
              </strong>
              <PhaseTag phase={issue.phase} />
            </div>
            <IssueFacts issue={issue} />
          </Link>
        </li>
      )}
    </PagedList>
  );
}

function PlacementList() {
  const { LL } = useI18nContext();
  const money = useMoneyText();
  const open = useStationQuery('GET /user/newStockQc.do', {});
  if (open.loading) return <Loading />;
  if (!open.data) return open.error ? <ErrorState error={open.error} onRetry={open.reload} /> : <Loading />;
  if (open.data.length === 0) return <Empty text={LL.newshares.noPlacements()} />;
  return (
    <>
      <p className="guide-text">{LL.newshares.chipGrabNote()}</p>
      <ul className="record-list" data-testid="placement-list">
        {open.data.map((issue) => (
          <li key={issue.code} className="record" data-testid="placement-row">
            <Link to="/qingchouDetail" search={{ code: issue.code }} className="record-link">
              <div className="record-head">
                <strong>
                  {issue.name} <span className="muted num">{issue.code}</span>
                </strong>
                <span className="num">{money(issue.placementPrice)}</span>
              </div>
              <InfoRow label={LL.newshares.placementLeft()}>
                <span className="num">
                  {issue.placementLeft} / {issue.placementLots}
                </span>
              </InfoRow>
            </Link>
          </li>
        ))}
      </ul>
    </>
  );
}
