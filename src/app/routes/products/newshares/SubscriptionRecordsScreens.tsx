/**
 * /sharerecord: every subscription and placement of the user (getOneSubscribeByUserId.do);
 * /zhongqianrecord: the winning records (getzqjl.do), where a win is paid before its deadline.
 */
import { useState } from 'react';
import { useI18nContext } from '../../../../../locales/i18n-react';
import type { NewShareSubscription } from '../../../../shared/api/newshares';
import { useStationPages, type StationPages } from '../../../api/station-query';
import { PagedList } from '../../../components/record-parts';
import { SubscriptionRecord } from './newshare-parts';
import '../../../components/wallet.css';
import './newshares.css';

/** Records with the rows a pay action changed replaced in place. */
function RecordList({ pages, emptyText }: { pages: StationPages<NewShareSubscription>; emptyText: string }) {
  const [updated, setUpdated] = useState<Map<number, NewShareSubscription>>(new Map());
  return (
    <div className="wallet-screen newshares-screen">
      <PagedList pages={pages} emptyText={emptyText} testId="subscription-list">
        {(row) => (
          <SubscriptionRecord
            key={row.id}
            subscription={updated.get(row.id) ?? row}
            onChange={(next) => setUpdated((prev) => new Map(prev).set(next.id, next))}
          />
        )}
      </PagedList>
    </div>
  );
}

export function SubscriptionRecordsScreen() {
  const { LL } = useI18nContext();
  return (
    <RecordList
      pages={useStationPages('GET /user/getOneSubscribeByUserId.do', { pageSize: 15 })}
      emptyText={LL.newshares.noRecords()}
    />
  );
}

export function WinningRecordsScreen() {
  const { LL } = useI18nContext();
  return (
    <RecordList
      pages={useStationPages('GET /user/getzqjl.do', { pageSize: 15 })}
      emptyText={LL.newshares.noWinning()}
    />
  );
}
