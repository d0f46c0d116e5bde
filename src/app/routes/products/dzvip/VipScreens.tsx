/**
 * VIP picks ("chip grabbing"): /vipdetail lists today's limited allocations (first come first served) and,
 * with `?code=`, shows one with its purchase form; /VipSearchlist finds one by code, name or pinyin. Buying
 * needs the VIP permission: without it the station answers NO_PERMISSION and the screen says so and offers
 * to request it (the station's reviewer grants it after its review delay, or the operator does).
 * An allocation not open shows an inactive button, not the bright "Grab now".
 */
import { useDeferredValue, useState } from 'react';
import { Link, useSearch } from '@tanstack/react-router';
import { useI18nContext } from '../../../../../locales/i18n-react';
import type { VipPick } from '../../../../shared/api/dzvip';
import { formatDateTime, formatMoney } from '../../../../shared/format';
import { useStationMutation, useStationPages, useStationQuery } from '../../../api/station-query';
import { Empty, ErrorState, Loading } from '../../../components/StatusViews';
import { InfoRow, PagedList, useMoneyText } from '../../../components/record-parts';
import { PRICE_REFRESH_MS } from '../../../components/market-info';
import { Figures, PurchaseForm, StatusTag, StatusText, windowText } from './dzvip-parts';
import '../../../components/wallet.css';
import '../../../components/trade.css';
import './dzvip.css';

const VIP_PERMISSION = 'vip_picks' as const;

/** /vipdetail: every allocation of today, or one (`?code=`) with its purchase form. */
export function VipPicksScreen() {
  const search = useSearch({ from: '/vipdetail' });
  return search.code ? <VipPickDetail code={search.code} /> : <VipPickList />;
}

/** How often a pending request is looked at again: the reviewer decides within seconds. */
const REQUEST_POLL_MS = 2000;

function PermissionNote() {
  const { LL } = useI18nContext();
  const [polling, setPolling] = useState(false);
  const permissions = useStationQuery(
    'GET /user/getPermissions.do',
    {},
    polling ? { refetchInterval: REQUEST_POLL_MS } : {},
  );
  const request = useStationMutation('POST /user/requestPermission.do');
  const data = permissions.data;
  const granted = data?.permissions.includes(VIP_PERMISSION) ?? false;
  const requested = (data?.requested.includes(VIP_PERMISSION) ?? false) || request.isSuccess;
  const shouldPoll = requested && !granted;
  if (shouldPoll !== polling) setPolling(shouldPoll);
  if (!data) return null;
  if (granted) {
    return (
      <p className="dzvip-note" data-testid="vip-granted">
        {LL.dzvip.vipHasPermission()}
      </p>
    );
  }
  if (requested) {
    return (
      <p className="dzvip-note" data-testid="vip-requested">
        {LL.dzvip.vipRequested()}
      </p>
    );
  }
  return (
    <div className="dzvip-note" data-testid="vip-not-granted">
      <p>{LL.dzvip.vipNoPermission()}</p>
      <button
        type="button"
        className="button secondary block"
        data-testid="vip-request"
        disabled={request.isPending}
        onClick={() => request.mutate({ permission: VIP_PERMISSION })}
      >
        {LL.dzvip.vipRequest()}
      </button>
    </div>
  );
}

function PickCard({ pick, action }: { pick: VipPick; action?: boolean }) {
  const { LL, locale } = useI18nContext();
  const soldPct = pick.totalLots > 0 ? (pick.soldLots / pick.totalLots) * 100 : 100;
  return (
    <div className="dzvip-card" data-testid="vip-card">
      <div className="dzvip-card-head">
        <strong>
          {pick.name}
          <span className="code">{pick.code}</span>
        </strong>
        <StatusTag status={pick.status} />
      </div>
      <Figures
        items={[
          [LL.dzvip.setPrice(), <span data-testid="vip-price">{formatMoney(pick.price, locale)}</span>],
          [LL.dzvip.currentPrice(), formatMoney(pick.currentPrice, locale)],
          [
            LL.dzvip.remaining(),
            <span data-testid="vip-remaining">
              {LL.dzvip.remainingOf({ left: pick.remainingLots, total: pick.totalLots })}
            </span>,
          ],
          [LL.dzvip.perUserCap(), LL.dzvip.lotsValue({ lots: pick.maxLotsPerUser })],
          [LL.dzvip.window(), windowText(pick.opensAt, pick.closesAt)],
        ]}
      />
      <div className="dzvip-progress" aria-hidden="true">
        <span style={{ width: `${soldPct}%` }} />
      </div>
      {action && pick.status !== 'open' && (
        <button type="button" className="button block inactive" disabled data-testid={`grab-${pick.code}`}>
          <StatusText status={pick.status} />
        </button>
      )}
      {action && pick.status === 'open' && (
        <Link
          to="/vipdetail"
          search={{ code: pick.code }}
          className="button primary block"
          data-testid={`grab-${pick.code}`}
        >
          {LL.dzvip.grab()}
        </Link>
      )}
    </div>
  );
}

function VipPickList() {
  const { LL } = useI18nContext();
  const picks = useStationQuery('GET /api/stock/getVipList.do', {}, { refetchInterval: PRICE_REFRESH_MS });
  return (
    <div className="dzvip-screen">
      <p className="muted small">{LL.dzvip.vipIntro()}</p>
      <PermissionNote />
      {!picks.data ? (
        picks.error ? (
          <ErrorState error={picks.error} onRetry={picks.reload} />
        ) : (
          <Loading />
        )
      ) : picks.data.length === 0 ? (
        <Empty text={LL.dzvip.noPicks()} />
      ) : (
        <ul className="record-list" data-testid="vip-list">
          {picks.data.map((pick) => (
            <li key={pick.id}>
              <PickCard pick={pick} action />
            </li>
          ))}
        </ul>
      )}
      <h2 className="section-title">{LL.dzvip.myPurchases()}</h2>
      <PurchaseList />
    </div>
  );
}

function VipPickDetail({ code }: { code: string }) {
  const { LL } = useI18nContext();
  const pick = useStationQuery(
    'GET /api/stock/getVipByCode.do',
    { code },
    { refetchInterval: PRICE_REFRESH_MS },
  );
  const grab = useStationMutation('POST /user/buyVipQc.do');
  if (!pick.data) {
    return (
      <div className="dzvip-screen">
        {pick.error ? <ErrorState error={pick.error} onRetry={pick.reload} /> : <Loading />}
      </div>
    );
  }
  const data = pick.data;
  return (
    <div className="dzvip-screen">
      <PickCard pick={data} />
      <PermissionNote />
      {data.status === 'open' && (
        <section aria-label={LL.dzvip.grabTitle({ name: data.name })}>
          <PurchaseForm
            terms={{
              code: data.code,
              name: data.name,
              market: data.market,
              price: data.price,
              minLots: 1,
              maxLots: Math.min(data.maxLotsPerUser, data.remainingLots),
              lotSize: data.lotSize,
              leverages: [1],
            }}
            confirmText={LL.dzvip.grab()}
            doneText={(lots) => LL.dzvip.grabbed({ name: data.name, lots })}
            purchase={{
              isPending: grab.isPending,
              // A VIP allocation is paid in full: no leverage is sent.
              mutate: ({ lots }, callbacks) => grab.mutate({ code: data.code, lots }, callbacks),
            }}
          />
        </section>
      )}
      <Link to="/vipdetail" className="button ghost block">
        {LL.dzvip.allPicks()}
      </Link>
    </div>
  );
}

function PurchaseList() {
  const { LL, locale } = useI18nContext();
  const money = useMoneyText();
  const pages = useStationPages('GET /user/vipQcList.do', { pageSize: 20 });
  return (
    <PagedList pages={pages} emptyText={LL.dzvip.noPurchases()} testId="vip-purchases">
      {(purchase) => (
        <li key={purchase.id} className="record" data-testid="vip-purchase">
          <Link to="/detail" search={{ id: String(purchase.position.id) }} className="record-link">
            <div className="record-head">
              <strong>
                {purchase.name} {purchase.code}
              </strong>
              <span className="num">{LL.dzvip.lotsValue({ lots: purchase.lots })}</span>
            </div>
            <InfoRow label={LL.dzvip.setPrice()}>{formatMoney(purchase.price, locale)}</InfoRow>
            <InfoRow label={LL.dzvip.amount()}>{money(purchase.amount, 'CNY')}</InfoRow>
            <InfoRow label={LL.dzvip.boughtAt()}>
              <span className="num">{formatDateTime(purchase.createdAt)}</span>
            </InfoRow>
          </Link>
        </li>
      )}
    </PagedList>
  );
}

/** /VipSearchlist: today's allocations matching a code, a name or pinyin initials. */
export function VipSearchScreen() {
  const { LL } = useI18nContext();
  const [keyword, setKeyword] = useState('');
  const deferred = useDeferredValue(keyword.trim());
  const results = useStationQuery(
    'GET /api/stock/getVipList.do',
    deferred === '' ? null : { keyword: deferred },
  );
  return (
    <div className="dzvip-screen">
      <div className="dzvip-search">
        <input
          type="search"
          aria-label={LL.dzvip.searchLabel()}
          placeholder={LL.dzvip.searchPlaceholder()}
          value={keyword}
          maxLength={32}
          data-testid="vip-search-input"
          onChange={(event) => setKeyword(event.target.value)}
        />
      </div>
      {deferred === '' ? (
        <p className="muted small">{LL.dzvip.searchHint()}</p>
      ) : !results.data ? (
        results.error ? (
          <ErrorState error={results.error} onRetry={results.reload} />
        ) : (
          <Loading />
        )
      ) : results.data.length === 0 ? (
        <Empty text={LL.dzvip.noResults()} />
      ) : (
        <ul className="record-list" data-testid="vip-search-results">
          {results.data.map((pick) => (
            <li key={pick.id}>
              <PickCard pick={pick} action />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
