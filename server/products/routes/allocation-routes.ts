/**
 * Fund allocation (spec §7 "Funds", under /user/funds/): the settings and types, applying, the list of
 * applications, and an allocation's sub-account with its trading, positions and ending early.
 */
import type { FastifyInstance } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import type { AllocationStatus } from '../../../src/shared/api/funds';
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
  ok,
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
} from '../../platform';
import {
  ALLOCATION_STATUSES,
  allocation,
  idField,
  int,
  lotsRule,
  moneyField,
  num,
  object,
  subAccount,
  type SessionUserId,
} from './fund-schemas';

/** The allocation settings and types, applying, and the user's applications. */
export function allocationApplicationRoutes(app: FastifyInstance, userId: SessionUserId): void {
  const { station } = app;
  const { settings } = station.config;
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
}

/** An allocation's sub-account: its value, buying and selling in it, its positions, and ending it early. */
export function allocationSubAccountRoutes(app: FastifyInstance, userId: SessionUserId): void {
  const { station } = app;
  const { settings } = station.config;
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
}
