/**
 * Funds and fund allocation (issue 13). Fund products: the list and a fund's NAV history are public; buying,
 * selling, holdings and trade records need a session. Fund allocation (spec §7 "Funds", under
 * /user/funds/): settings, types, applying, the list of applications, the sub-account, its trading and
 * positions, and ending an allocation early. All need a session.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import type { AllocationStatus, FundType } from '../../../src/shared/api/funds';
import { checkLots } from '../../../src/shared/validation';
import {
  allocationTypes,
  allocationSetting,
  applyForAllocation,
  buyInSubAccount,
  endAllocation,
  listAllocations,
  listSubAccountPositions,
  sellInSubAccount,
  subAccountView,
} from '../fund-allocation';
import {
  buyFund,
  fundDetail,
  fundHoldings,
  listFundTrades,
  listFunds,
  NAV_HISTORY_DEFAULT,
  NAV_HISTORY_MAX,
  sellFund,
} from '../funds';
import { ok } from '../../platform/http/envelope';
import type { FieldRule } from '../../platform/http/fastify-types';
import {
  fields,
  lotsField,
  pageNumField,
  pageOf,
  pageSizeField,
  postConsumes,
  ref,
  requestIdField,
  responses,
  stockCodeField,
  userSecurity,
} from '../../platform/http/schemas';

const num = { type: 'number' } as const;
const int = { type: 'integer' } as const;
const str = { type: 'string' } as const;
const nullable = (type: 'number' | 'string' | 'integer') => ({ type: [type, 'null'] }) as const;

function object(properties: Record<string, unknown>, description?: string) {
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  } as const;
}

const FUND_TYPES = ['equity', 'mixed', 'bond', 'index', 'money'] as const satisfies readonly FundType[];
const ALLOCATION_STATUSES = [
  'review',
  'trading',
  'expired',
  'ended',
] as const satisfies readonly AllocationStatus[];

const fundCodeField = {
  type: 'string',
  maxLength: 16,
  pattern: '^[0-9]{6}$',
  description: '6 digits',
} as const;
const moneyField = {
  type: 'number',
  minimum: -1e12,
  maximum: 1e12,
  description: 'major units, 2 decimals',
} as const;
const idField = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;

const fundProduct = object({
  code: str,
  name: str,
  type: { type: 'string', enum: FUND_TYPES },
  riskLevel: { ...int, description: '1 (lowest) to 5' },
  nav: { ...num, description: "the day's NAV, 4 decimals" },
  navDate: { ...str, description: 'yyyy-MM-dd: the trading day of the NAV' },
  dayChangePct: { ...num, description: 'against the previous trading day, a fraction' },
  yearReturnPct: { ...num, description: 'over the last 250 trading days, a fraction' },
  purchaseFeeRate: num,
  redeemFeeRate: num,
  minPurchase: num,
});
const fundTrade = object({
  id: int,
  code: str,
  name: str,
  side: { type: 'string', enum: ['buy', 'sell'] },
  units: num,
  nav: num,
  amount: { ...num, description: 'buy: paid, fee included; sell: received, fee deducted' },
  fee: num,
  createdAt: int,
});
const allocation = object({
  id: int,
  typeCode: { type: 'string', enum: ['days', 'months'] },
  status: {
    type: 'string',
    enum: ALLOCATION_STATUSES,
    description: 'under review → trading → expired | ended',
  },
  endReason: { type: ['string', 'null'], enum: ['expiry', 'user', 'liquidation', 'rejected', null] },
  margin: num,
  multiple: int,
  allocated: { ...num, description: 'margin × multiple' },
  days: { ...int, description: 'the period in trading days' },
  dailyFeeRate: num,
  dailyFee: { ...num, description: 'management fee per trading day: allocated × daily rate' },
  feesCharged: num,
  warningValue: { ...num, description: 'total assets at the warning line (allocated × line)' },
  liquidationValue: { ...num, description: 'total assets at the liquidation line' },
  createdAt: int,
  startedAt: nullable('integer'),
  expiresAt: nullable('integer'),
  endedAt: nullable('integer'),
  returned: { ...nullable('number'), description: 'what went back to the main account at the end' },
  rejectReason: nullable('string'),
});
const subAccount = object({
  allocation,
  cash: num,
  marketValue: num,
  totalAssets: num,
  pnl: { ...num, description: 'total assets − (margin + allocated); after the end: returned − margin' },
  riskRatio: { ...nullable('number'), description: 'total assets ÷ allocated, while trading' },
  positions: { type: 'array', items: ref('Position') },
});

/** The quantity messages of spec §5 for a lots field that failed its schema. */
const lotsRule: FieldRule = (raw) =>
  checkLots(typeof raw === 'number' || typeof raw === 'string' ? raw : undefined, lotsField.maximum) ??
  (raw === undefined || typeof raw === 'number' || typeof raw === 'string' ? null : 'lotsNotWhole');

const publicFundsPlugin: FastifyPluginAsync = async (app) => {
  const { station } = app;
  app.get<{ Querystring: CallIn<'GET /api/fund/list.do'> }>(
    '/api/fund/list.do',
    {
      schema: {
        tags: ['funds'],
        summary: "Fund products with the day's simulated NAV",
        querystring: fields({ type: { type: 'string', enum: FUND_TYPES } }),
        response: responses({ type: 'array', items: fundProduct }),
      },
    },
    async (request) => ok(listFunds(station, request.query.type)),
  );
  app.get<{ Querystring: { code: string; days: number } }>(
    '/api/fund/detail.do',
    {
      schema: {
        tags: ['funds'],
        summary: 'A fund product and its NAV history (one row per trading day, oldest first)',
        querystring: fields(
          {
            code: fundCodeField,
            days: { type: 'integer', minimum: 1, maximum: NAV_HISTORY_MAX, default: NAV_HISTORY_DEFAULT },
          },
          ['code'],
        ),
        response: responses(
          object({
            fund: fundProduct,
            history: {
              type: 'array',
              items: { type: 'array', items: num, minItems: 2, maxItems: 2 },
              description: '[time (the day at 00:00 UTC), nav]',
            },
          }),
        ),
      },
    },
    async (request) => ok(fundDetail(station, request.query.code, request.query.days)),
  );
};

const userFundsPlugin: FastifyPluginAsync = async (app) => {
  const { station } = app;
  const { settings } = station.config;
  app.addHook('onRequest', app.auth.requireUser);
  const userId = (request: Parameters<typeof app.auth.session>[0]) => app.auth.session(request).userId;

  app.post<{ Body: CallIn<'POST /user/fund/buy.do'> }>(
    '/user/fund/buy.do',
    {
      schema: {
        tags: ['funds'],
        summary:
          "Buy a fund for an amount from the main account at the day's NAV (the purchase fee comes out of it)",
        security: userSecurity,
        consumes: postConsumes,
        body: fields({ code: fundCodeField, amount: moneyField, requestId: requestIdField }, [
          'code',
          'amount',
          'requestId',
        ]),
        response: responses(fundTrade),
      },
    },
    async (request) => ok(await buyFund(station, userId(request), request.body)),
  );
  app.post<{ Body: CallIn<'POST /user/fund/sell.do'> }>(
    '/user/fund/sell.do',
    {
      schema: {
        tags: ['funds'],
        summary:
          "Redeem units (2 decimals) of a fund at the day's NAV into the main account, less the redemption fee",
        security: userSecurity,
        consumes: postConsumes,
        body: fields(
          {
            code: fundCodeField,
            units: { type: 'number', minimum: -1e12, maximum: 1e12 },
            requestId: requestIdField,
          },
          ['code', 'units', 'requestId'],
        ),
        response: responses(fundTrade),
      },
    },
    async (request) => ok(await sellFund(station, userId(request), request.body)),
  );
  app.get(
    '/user/fund/holdings.do',
    {
      schema: {
        tags: ['funds'],
        summary: "The user's fund holdings valued at the day's NAV",
        security: userSecurity,
        response: responses(
          object({
            holdings: {
              type: 'array',
              items: object({
                code: str,
                name: str,
                units: num,
                nav: num,
                marketValue: num,
                cost: num,
                pnl: num,
              }),
            },
            totalValue: num,
          }),
        ),
      },
    },
    async (request) => ok(await fundHoldings(station, userId(request))),
  );
  app.get<{ Querystring: { pageNum: number; pageSize: number } }>(
    '/user/fund/trades.do',
    {
      schema: {
        tags: ['funds'],
        summary: 'Fund purchases and redemptions, newest first',
        security: userSecurity,
        querystring: fields({
          pageNum: pageNumField,
          pageSize: { ...pageSizeField, default: settings.pageSizeDefault },
        }),
        response: responses(pageOf(fundTrade)),
      },
    },
    async (request) => ok(await listFundTrades(station, userId(request), request.query)),
  );

  app.get(
    '/user/funds/getFundsSetting.do',
    {
      schema: {
        tags: ['funds'],
        summary:
          'Fund allocation settings: margin limits and step, warning and liquidation lines, review delay',
        security: userSecurity,
        response: responses(
          object({
            minMargin: num,
            maxMargin: num,
            marginStep: num,
            warningLine: num,
            liquidationLine: num,
            reviewDelaySeconds: int,
            markets: { type: 'array', items: { type: 'string', enum: ['a', 'star'] } },
          }),
        ),
      },
    },
    async () => ok(allocationSetting(station)),
  );
  app.get(
    '/user/funds/getFundsTypeList.do',
    {
      schema: {
        tags: ['funds'],
        summary: 'Fund allocation types: period range (trading days), multiples, daily management fee rate',
        security: userSecurity,
        response: responses({
          type: 'array',
          items: object({
            code: { type: 'string', enum: ['days', 'months'] },
            minDays: int,
            maxDays: int,
            multiples: { type: 'array', items: int },
            dailyFeeRate: num,
          }),
        }),
      },
    },
    async () => ok(allocationTypes(station)),
  );
  app.post<{ Body: CallIn<'POST /user/funds/addFundsApply.do'> }>(
    '/user/funds/addFundsApply.do',
    {
      schema: {
        tags: ['funds'],
        summary:
          'Apply for a fund allocation: the margin leaves the main account now; reviewed, then a sub-account ' +
          'with margin + margin × multiple trades for the period',
        security: userSecurity,
        consumes: postConsumes,
        body: fields(
          {
            typeCode: { type: 'string', enum: ['days', 'months'] },
            margin: { ...moneyField, description: 'major units, a multiple of the margin step' },
            multiple: { type: 'integer', minimum: 1, maximum: 100 },
            days: { type: 'integer', minimum: 1, maximum: 1000, description: 'trading days' },
            requestId: requestIdField,
          },
          ['typeCode', 'margin', 'multiple', 'days', 'requestId'],
        ),
        response: responses(allocation),
      },
    },
    async (request) => ok(await applyForAllocation(station, userId(request), request.body)),
  );
  app.get<{ Querystring: { status?: AllocationStatus; pageNum: number; pageSize: number } }>(
    '/user/funds/getUserApplyList.do',
    {
      schema: {
        tags: ['funds'],
        summary: "The user's fund allocations, newest first",
        security: userSecurity,
        querystring: fields({
          status: { type: 'string', enum: ALLOCATION_STATUSES },
          pageNum: pageNumField,
          pageSize: { ...pageSizeField, default: settings.pageSizeDefault },
        }),
        response: responses(pageOf(allocation)),
      },
    },
    async (request) => ok(await listAllocations(station, userId(request), request.query)),
  );
  app.get<{ Querystring: CallIn<'GET /user/funds/getUserSubaccount.do'> }>(
    '/user/funds/getUserSubaccount.do',
    {
      schema: {
        tags: ['funds'],
        summary:
          "An allocation's sub-account valued now: cash, positions, total assets, risk ratio (without applyId: " +
          'the current allocation, else the latest; null with none)',
        security: userSecurity,
        querystring: fields({ applyId: idField }),
        response: responses({ anyOf: [subAccount, { type: 'null' }] }),
      },
    },
    async (request) => ok(await subAccountView(station, userId(request), request.query.applyId)),
  );
  app.post<{ Body: CallIn<'POST /user/funds/buyFunds.do'> }>(
    '/user/funds/buyFunds.do',
    {
      config: { fieldRules: { lots: lotsRule } },
      schema: {
        tags: ['funds'],
        summary:
          "Market buy of an A-share or STAR stock in a trading allocation's sub-account (long, leverage 1)",
        security: userSecurity,
        consumes: postConsumes,
        body: fields({ applyId: idField, code: stockCodeField, lots: lotsField, requestId: requestIdField }, [
          'applyId',
          'code',
          'lots',
          'requestId',
        ]),
        response: responses(ref('Position')),
      },
    },
    async (request) => ok(await buyInSubAccount(station, userId(request), request.body)),
  );
  app.post<{ Body: CallIn<'POST /user/funds/sellFunds.do'> }>(
    '/user/funds/sellFunds.do',
    {
      config: { fieldRules: { lots: (raw) => (raw === undefined ? null : lotsRule(raw)) } },
      schema: {
        tags: ['funds'],
        summary: "Sell a position of a trading allocation's sub-account, or some lots of it",
        security: userSecurity,
        consumes: postConsumes,
        body: fields(
          {
            applyId: idField,
            positionId: idField,
            lots: { ...lotsField, description: 'absent: the whole position' },
            requestId: requestIdField,
          },
          ['applyId', 'positionId', 'requestId'],
        ),
        response: responses(ref('Position')),
      },
    },
    async (request) => ok(await sellInSubAccount(station, userId(request), request.body)),
  );
  app.get<{ Querystring: { applyId: number; state: 'open' | 'closed'; pageNum: number; pageSize: number } }>(
    '/user/funds/fundsList.do',
    {
      schema: {
        tags: ['funds'],
        summary: "An allocation's sub-account positions, open or closed, newest first",
        security: userSecurity,
        querystring: fields(
          {
            applyId: idField,
            state: { type: 'string', enum: ['open', 'closed'], default: 'open' },
            pageNum: pageNumField,
            pageSize: { ...pageSizeField, default: settings.pageSizeDefault },
          },
          ['applyId'],
        ),
        response: responses(pageOf(ref('Position'))),
      },
    },
    async (request) => ok(await listSubAccountPositions(station, userId(request), request.query)),
  );
  app.post<{ Body: CallIn<'POST /user/funds/endFundsApply.do'> }>(
    '/user/funds/endFundsApply.do',
    {
      schema: {
        tags: ['funds'],
        summary:
          'End a trading allocation early: its positions are closed at market (each must be closable now), ' +
          'the allocated funds repaid and the rest returned to the main account',
        security: userSecurity,
        consumes: postConsumes,
        body: fields({ applyId: idField, requestId: requestIdField }, ['applyId', 'requestId']),
        response: responses(allocation),
      },
    },
    async (request) => ok(await endAllocation(station, userId(request), request.body)),
  );
};

export const fundsPlugin: FastifyPluginAsync = async (app) => {
  await app.register(publicFundsPlugin);
  await app.register(userFundsPlugin);
};
