/**
 * /sharerecord: every subscription and placement of the user (getOneSubscribeByUserId.do);
 * /zhongqianrecord: the winning records (getzqjl.do), where a win is paid before its deadline.
 */
import { useState } from 'react';
import { useI18nContext } from '../../../../../locales/i18n-react';
import type { NewShareSubscription } from '../../../../shared/api/newshares';
import { call } from '../../../api/client';
import { usePages } from '../../../api/use-call';
import { PagedList } from '../../wallet/wallet-parts';
import { SubscriptionRecord } from './newshare-parts';
import '../../wallet/wallet.css';
import './newshares.css';

/** Records with the rows a pay action changed replaced in place. */
function RecordList({
  listKey,
  emptyText,
  load,
}: {
  listKey: string;
  emptyText: string;
  load: (pageNum: number, signal: AbortSignal) => ReturnType<typeof call<'GET /user/getzqjl.do'>>;
}) {
  const pages = usePages<NewShareSubscription>(listKey, load);
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
      listKey="newshare-subscriptions"
      emptyText={LL.newshares.noRecords()}
      load={(pageNum, signal) =>
        call('GET /user/getOneSubscribeByUserId.do', { pageNum, pageSize: 15 }, { signal })
      }
    />
  );
}

export function WinningRecordsScreen() {
  const { LL } = useI18nContext();
  return (
    <RecordList
      listKey="newshare-winning"
      emptyText={LL.newshares.noWinning()}
      load={(pageNum, signal) => call('GET /user/getzqjl.do', { pageNum, pageSize: 15 }, { signal })}
    />
  );
}
