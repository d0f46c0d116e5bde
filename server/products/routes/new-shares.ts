/**
 * New-share and new-bond subscription calls: the calendar, subscribing (add.do), paying a win
 * (submitSubscribe.do), chip-grab placement (newStockQc.do, buyNewStockQc.do) and the user's subscription
 * and winning records. All need a session. The draw, deadlines and listings run in the engine.
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import '../../../src/shared/api/newshares';
import { checkLots } from '../../../src/shared/validation';
import {
  grabPlacement,
  listIssues,
  listSubscriptions,
  payWinning,
  placementIssues,
  subscribe,
} from '../new-shares';
import {
  ok,
  fields,
  lotsField,
  pageNumField,
  pageOf,
  pageSizeField,
  postConsumes,
  requestIdField,
  responses,
  stockCodeField,
  userSecurity,
  type FieldRule,
} from '../../platform';

const int = { type: 'integer' } as const;
const num = { type: 'number' } as const;
const str = { type: 'string' } as const;
const nullable = (type: 'integer' | 'number' | 'string') => ({ type: [type, 'null'] }) as const;

function object(properties: Record<string, unknown>) {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  } as const;
}

const issueTypeField = { type: 'string', enum: ['share', 'bond'] } as const;
const idField = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;

/** The quantity messages of spec §5 for a lots field that failed its schema. */
const lotsRule: FieldRule = (raw) =>
  checkLots(typeof raw === 'number' || typeof raw === 'string' ? raw : undefined, lotsField.maximum) ??
  (raw === undefined || typeof raw === 'number' || typeof raw === 'string' ? null : 'lotsNotWhole');

const issueSchema = object({
  code: str,
  name: str,
  nameEn: str,
  type: issueTypeField,
  market: { type: 'string', enum: ['a', 'star'] },
  issuePrice: num,
  placementPrice: { ...num, description: 'price of a chip-grab placement lot (no draw)' },
  pe: { ...nullable('number'), description: 'issue P/E; null for a bond' },
  issueVolume: { ...int, description: 'shares (bonds) issued in all' },
  onlineLots: { ...int, description: "lots the station's online draw gives out" },
  perUserCap: { ...int, description: 'most lots one user may subscribe or grab' },
  sharesPerLot: int,
  placementLots: int,
  placementLeft: int,
  subscribeDate: { ...str, description: 'online issue date (Asia/Shanghai)' },
  drawDate: str,
  listingDate: str,
  subscribeOpensAt: int,
  subscribeClosesAt: int,
  drawAt: int,
  payDeadline: { ...int, description: 'winners pay before this; unpaid winning lots are forfeited' },
  listingAt: int,
  phase: { type: 'string', enum: ['upcoming', 'subscribing', 'awaiting_draw', 'drawn', 'listed'] },
  draw: object({
    seedHash: { ...str, description: 'SHA-256 of the seed bytes (hex), published from the start' },
    seed: { ...nullable('string'), description: '64 hex digits, published once drawn' },
    numbersFrom: int,
    numbersCount: { ...int, description: 'allocation numbers numbersFrom … numbersFrom + numbersCount − 1' },
    winnersCount: nullable('integer'),
    winningNumbers: { type: ['array', 'null'], items: int },
    drawnAt: nullable('integer'),
  }),
});

const subscriptionSchema = object({
  id: int,
  code: str,
  name: str,
  type: issueTypeField,
  kind: { type: 'string', enum: ['lottery', 'placement'] },
  state: {
    type: 'string',
    enum: ['subscribed', 'not_winning', 'winning', 'paid', 'abandoned', 'listed', 'closed'],
  },
  lots: int,
  shares: int,
  price: num,
  firstNumber: nullable('integer'),
  lastNumber: nullable('integer'),
  wonLots: nullable('integer'),
  winningNumbers: { type: 'array', items: int },
  amountDue: num,
  amountPaid: num,
  payDeadline: int,
  listingAt: int,
  positionId: nullable('integer'),
  createdAt: int,
  drawnAt: nullable('integer'),
  paidAt: nullable('integer'),
  listedAt: nullable('integer'),
});

const orderBody = fields(
  {
    code: stockCodeField,
    lots: { ...lotsField, description: '1 … the issue’s per-user cap; 1 lot = 100 shares (bonds)' },
    requestId: requestIdField,
  },
  ['code', 'lots', 'requestId'],
);

const tags = ['newshares'];

/** The calendar, and the issues whose chip-grab placement is open with grabbing a placement. */
function issueRoutes(app: FastifyInstance): void {
  const { station } = app;
  app.get<{ Querystring: CallIn<'GET /user/newStockList.do'> & { pageNum: number; pageSize: number } }>(
    '/user/newStockList.do',
    {
      schema: {
        tags,
        summary: 'The new share and bond calendar (up to two weeks ahead), newest online issue date first',
        security: userSecurity,
        querystring: fields({
          type: issueTypeField,
          code: stockCodeField,
          pageNum: pageNumField,
          pageSize: pageSizeField,
        }),
        response: responses(pageOf(issueSchema)),
      },
    },
    async (request) => ok(await listIssues(station, request.query)),
  );

  app.get<{ Querystring: CallIn<'GET /user/newStockQc.do'> }>(
    '/user/newStockQc.do',
    {
      schema: {
        tags,
        summary: 'Issues whose chip-grab placement is open now, with the lots left',
        security: userSecurity,
        querystring: fields({ type: issueTypeField }),
        response: responses({ type: 'array', items: issueSchema }),
      },
    },
    async (request) => ok(await placementIssues(station, request.query.type)),
  );

  app.post<{ Body: CallIn<'POST /user/buyNewStockQc.do'> }>(
    '/user/buyNewStockQc.do',
    {
      config: { fieldRules: { lots: lotsRule } },
      schema: {
        tags,
        summary: 'Chip-grab placement: lots at the placement price, first come first served, paid at once',
        security: userSecurity,
        consumes: postConsumes,
        body: orderBody,
        response: responses(subscriptionSchema),
      },
    },
    async (request) => ok(await grabPlacement(station, app.auth.session(request).userId, request.body)),
  );
}

/** Subscribing, paying a win, and the user's subscription and winning records. */
function subscriptionRoutes(app: FastifyInstance): void {
  const { station } = app;
  app.post<{ Body: CallIn<'POST /user/add.do'> }>(
    '/user/add.do',
    {
      config: { fieldRules: { lots: lotsRule } },
      schema: {
        tags,
        summary: 'Subscribe to a new share or bond in its window: allocation numbers, no money moves yet',
        security: userSecurity,
        consumes: postConsumes,
        body: orderBody,
        response: responses(subscriptionSchema),
      },
    },
    async (request) => ok(await subscribe(station, app.auth.session(request).userId, request.body)),
  );

  app.post<{ Body: CallIn<'POST /user/submitSubscribe.do'> }>(
    '/user/submitSubscribe.do',
    {
      schema: {
        tags,
        summary: 'Pay a winning subscription from the newstock account before its deadline',
        security: userSecurity,
        consumes: postConsumes,
        body: fields({ id: idField, requestId: requestIdField }, ['id', 'requestId']),
        response: responses(subscriptionSchema),
      },
    },
    async (request) => ok(await payWinning(station, app.auth.session(request).userId, request.body)),
  );

  app.get<{
    Querystring: CallIn<'GET /user/getOneSubscribeByUserId.do'> & { pageNum: number; pageSize: number };
  }>(
    '/user/getOneSubscribeByUserId.do',
    {
      schema: {
        tags,
        summary: "The user's subscriptions and placements, newest first",
        security: userSecurity,
        querystring: fields({
          code: stockCodeField,
          kind: { type: 'string', enum: ['lottery', 'placement'] },
          pageNum: pageNumField,
          pageSize: pageSizeField,
        }),
        response: responses(pageOf(subscriptionSchema)),
      },
    },
    async (request) => ok(await listSubscriptions(station, app.auth.session(request).userId, request.query)),
  );

  app.get<{ Querystring: CallIn<'GET /user/getzqjl.do'> & { pageNum: number; pageSize: number } }>(
    '/user/getzqjl.do',
    {
      schema: {
        tags,
        summary: "Winning records: the user's subscriptions that won lots (and placements), newest first",
        security: userSecurity,
        querystring: fields({ pageNum: pageNumField, pageSize: pageSizeField }),
        response: responses(pageOf(subscriptionSchema)),
      },
    },
    async (request) =>
      ok(
        await listSubscriptions(station, app.auth.session(request).userId, {
          ...request.query,
          wonOnly: true,
        }),
      ),
  );
}

export const newSharesPlugin: FastifyPluginAsync = async (app) => {
  app.addHook('onRequest', app.auth.requireUser);
  // In the order the OpenAPI document has always listed them.
  issueRoutes(app);
  subscriptionRoutes(app);
};
