/**
 * /sharerecordDz: today's block-trade offers (a discount to the price now, a minimum size, a window) with a
 * purchase sheet, and the user's block trades with the positions they made (T+1).
 */
import { useState } from 'react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useI18nContext } from '../../../../../locales/i18n-react';
import type { BlockTradeOffer } from '../../../../shared/api/dzvip';
import { formatDateTime, formatMoney } from '../../../../shared/format';
import { useExchangeTime } from '../../../i18n/exchange-time';
import { useStationMutation, useStationPages, useStationQuery } from '../../../api/station-query';
import { Sheet } from '../../../components/Sheet';
import { Empty, ErrorState, Loading } from '../../../components/StatusViews';
import { Tabs } from '../../../components/Tabs';
import { InfoRow, PagedList, useMoneyText } from '../../../components/record-parts';
import { PRICE_REFRESH_MS } from '../../../components/market-info';
import { Figures, PurchaseForm, StatusTag, windowText } from './dzvip-parts';
import '../../../components/wallet.css';
import '../../../components/trade.css';
import './dzvip.css';

type Tab = 'offers' | 'records';

export function BlockTradeScreen() {
  const { LL } = useI18nContext();
  const search = useSearch({ from: '/sharerecordDz' });
  const navigate = useNavigate();
  const tab: Tab = search.tab === 'records' ? 'records' : 'offers';
  return (
    <div className="dzvip-screen">
      <Tabs<Tab>
        label={LL.dzvip.tabsLabel()}
        value={tab}
        onChange={(next) =>
          void navigate({ to: '/sharerecordDz', search: next === 'records' ? { tab: 'records' } : {} })
        }
        items={[
          { key: 'offers', label: LL.dzvip.offersTab(), testId: 'tab-offers' },
          { key: 'records', label: LL.dzvip.recordsTab(), testId: 'tab-records' },
        ]}
      />
      {tab === 'offers' ? <OfferList /> : <RecordList />}
    </div>
  );
}

function OfferList() {
  const { LL, locale } = useI18nContext();
  const offers = useStationQuery('GET /api/stock/getDzList.do', {}, { refetchInterval: PRICE_REFRESH_MS });
  const buy = useStationMutation('POST /user/buyStockDz.do');
  const [buying, setBuying] = useState<BlockTradeOffer | null>(null);

  if (!offers.data) {
    return offers.error ? <ErrorState error={offers.error} onRetry={offers.reload} /> : <Loading />;
  }
  if (offers.data.length === 0) return <Empty text={LL.dzvip.noOffers()} />;
  const close = () => setBuying(null);
  return (
    <>
      {offers.error && <p className="inline-error">{offers.error.message}</p>}
      <ul className="record-list" data-testid="offer-list">
        {offers.data.map((offer) => (
          <li key={offer.code} className="dzvip-card" data-testid="offer-row">
            <div className="dzvip-card-head">
              <strong>
                {offer.name}
                <span className="code">{offer.code}</span>
              </strong>
              <StatusTag status={offer.status} />
            </div>
            <Figures
              items={[
                [
                  LL.dzvip.offerPrice(),
                  <span data-testid="offer-price">{formatMoney(offer.price, locale)}</span>,
                ],
                [LL.dzvip.currentPrice(), formatMoney(offer.currentPrice, locale)],
                [LL.dzvip.discount(), `${(offer.discount * 100).toFixed(1)}%`],
                [LL.dzvip.minLots(), LL.dzvip.lotsValue({ lots: offer.minLots })],
                [LL.dzvip.window(), windowText(offer.opensAt, offer.closesAt)],
              ]}
            />
            <button
              type="button"
              className="button primary block"
              disabled={offer.status !== 'open'}
              data-testid={`buy-${offer.code}`}
              onClick={() => setBuying(offer)}
            >
              {LL.dzvip.buy()}
            </button>
          </li>
        ))}
      </ul>
      <Sheet
        open={buying !== null}
        title={buying ? LL.dzvip.buyTitle({ name: buying.name }) : ''}
        onClose={close}
        testId="block-trade-sheet"
      >
        {buying && (
          <PurchaseForm
            terms={buying}
            confirmText={LL.dzvip.confirm()}
            doneText={(lots) => LL.dzvip.bought({ name: buying.name, lots })}
            purchase={{
              isPending: buy.isPending,
              mutate: (input, callbacks) => buy.mutate({ code: buying.code, ...input }, callbacks),
            }}
          />
        )}
      </Sheet>
    </>
  );
}

function RecordList() {
  const { LL, locale } = useI18nContext();
  const exchangeTime = useExchangeTime();
  const money = useMoneyText();
  const pages = useStationPages('GET /user/buyStockDzList.do', { pageSize: 20 });
  return (
    <PagedList pages={pages} emptyText={LL.dzvip.noRecords()} testId="block-trade-records">
      {(record) => (
        <li key={record.id} className="record" data-testid="block-trade-record">
          <Link to="/detail" search={{ id: String(record.position.id) }} className="record-link">
            <div className="record-head">
              <strong>
                {record.name} {record.code}
              </strong>
              <span className="status-tag">
                {record.position.closedAt === null ? LL.dzvip.positionOpen() : LL.dzvip.positionClosed()}
              </span>
            </div>
            <InfoRow label={LL.dzvip.offerPrice()}>{formatMoney(record.price, locale)}</InfoRow>
            <InfoRow label={LL.dzvip.marketPriceThen()}>{formatMoney(record.marketPrice, locale)}</InfoRow>
            <InfoRow label={LL.dzvip.lots()}>
              {LL.dzvip.lotsValue({ lots: record.lots })} · {LL.dzvip.sharesValue({ shares: record.shares })}
            </InfoRow>
            <InfoRow label={LL.dzvip.amount()}>{money(record.amount, 'CNY')}</InfoRow>
            <InfoRow label={LL.dzvip.fee()}>{money(record.fee, 'CNY')}</InfoRow>
            <InfoRow label={LL.dzvip.boughtAt()}>
              <span className="num">{formatDateTime(record.createdAt)}</span>
            </InfoRow>
            <InfoRow label={LL.dzvip.sellableFrom()}>
              <span className="num">{exchangeTime(record.position.sellableFrom, 'a')}</span>
            </InfoRow>
          </Link>
        </li>
      )}
    </PagedList>
  );
}
