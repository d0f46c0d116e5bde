/**
 * The competition calls: the public reads (list, detail, leaderboard) and the logged-in user's (create,
 * edit, join, nickname, mine, accounts, equity). Trading inside a competition goes through the ordinary
 * trading calls with `competitionId` (server/trading/routes).
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import {
  BodyCache,
  fields,
  ok,
  pageNumField,
  pageOf,
  pageSizeField,
  postConsumes,
  ref,
  requestIdField,
  responses,
  userSecurity,
} from '../../platform';
import {
  competitionDetail,
  createCompetition,
  editCompetition,
  listCompetitions,
  myCompetitions,
} from '../competitions';
import { competitionAccounts, joinCompetition, setNickname } from '../entry';
import { equityCurve, leaderboardPage } from '../ranking';
import {
  competitionIdField,
  competitionSchema,
  createBody,
  editBody,
  leaderboardSchema,
  myCompetitionSchema,
} from './competition-fields';
import { competitionStreamPlugin } from './competition-stream';

const tags = ['competition'];
const nicknameField = { type: 'string', maxLength: 64, description: '1–16 characters' } as const;
/** Leaderboard answers kept (pages of the latest snapshots; an older snapshot's are never asked for again). */
const LEADERBOARD_BODIES = 2000;

/** list.do, detail.do, leaderboard.do and the ranking's stream: no login needed. */
export const competitionReadsPlugin: FastifyPluginAsync = async (app) => {
  const { station } = app;
  await app.register(competitionStreamPlugin);
  const leaderboardBodies = new BodyCache(LEADERBOARD_BODIES);
  app.get<{ Querystring: { state?: 'upcoming' | 'running' | 'ended'; pageNum: number; pageSize: number } }>(
    '/api/competition/list.do',
    {
      schema: {
        tags,
        summary: 'Public competitions, the latest start first, by state',
        querystring: fields(
          {
            state: { type: 'string', enum: ['upcoming', 'running', 'ended'] },
            pageNum: pageNumField,
            pageSize: { ...pageSizeField, default: station.config.settings.pageSizeDefault },
          },
          [],
        ),
        response: responses(pageOf(competitionSchema)),
      },
    },
    async (request) => ok(await listCompetitions(station, request.query)),
  );
  app.get<{ Querystring: { id: number } }>(
    '/api/competition/detail.do',
    {
      schema: {
        tags,
        summary: 'A competition',
        querystring: fields({ id: competitionIdField }, ['id']),
        response: responses(competitionSchema),
      },
    },
    async (request) => ok(await competitionDetail(station, request.query.id)),
  );
  app.get<{ Querystring: { id: number; pageNum: number; pageSize: number } }>(
    '/api/competition/leaderboard.do',
    {
      schema: {
        tags,
        summary:
          'The ranking by total assets in yuan (ties: the earlier time reached), from the snapshot the ' +
          'station takes each second; frozen at the end, valued at the last price',
        querystring: fields(
          {
            id: competitionIdField,
            pageNum: pageNumField,
            pageSize: { ...pageSizeField, default: station.config.settings.pageSizeDefault },
          },
          ['id'],
        ),
        response: responses(leaderboardSchema),
      },
    },
    async (request, reply) => {
      const { id, pageNum, pageSize } = request.query;
      const { version, page } = await leaderboardPage(station, request.query);
      return leaderboardBodies.send(request, reply, `${id}:${version}:${pageNum}:${pageSize}`, () =>
        ok(page()),
      );
    },
  );
};

/** create.do and edit.do. */
function termRoutes(app: FastifyInstance): void {
  const { station } = app;
  app.post<{ Body: CallIn<'POST /user/competition/create.do'> }>(
    '/user/competition/create.do',
    {
      schema: {
        tags,
        summary: 'Create a competition (any logged-in user); a private one answers its joinCode',
        security: userSecurity,
        consumes: postConsumes,
        body: createBody,
        response: responses(competitionSchema),
      },
    },
    async (request) => ok(await createCompetition(station, app.auth.session(request).userId, request.body)),
  );
  app.post<{ Body: CallIn<'POST /user/competition/edit.do'> }>(
    '/user/competition/edit.do',
    {
      schema: {
        tags,
        summary: 'Edit a competition: its creator only, until it starts (the fields of create.do)',
        security: userSecurity,
        consumes: postConsumes,
        body: editBody,
        response: responses(competitionSchema),
      },
    },
    async (request) => ok(await editCompetition(station, app.auth.session(request).userId, request.body)),
  );
}

/** join.do and nickname.do. */
function entryRoutes(app: FastifyInstance): void {
  const { station } = app;
  app.post<{ Body: CallIn<'POST /user/competition/join.do'> }>(
    '/user/competition/join.do',
    {
      schema: {
        tags,
        summary:
          'Join a competition (by id, or a private one by joinCode) until its end, up to its cap: opens the ' +
          'competition accounts (CNY, HKD, USD) with its starting cash',
        security: userSecurity,
        consumes: postConsumes,
        body: fields(
          {
            id: competitionIdField,
            joinCode: { type: 'string', maxLength: 16 },
            nickname: {
              ...nicknameField,
              description: 'the name on the leaderboard; default the masked phone',
            },
            requestId: requestIdField,
          },
          ['requestId'],
        ),
        response: responses(myCompetitionSchema),
      },
    },
    async (request) => ok(await joinCompetition(station, app.auth.session(request).userId, request.body)),
  );
  app.post<{ Body: CallIn<'POST /user/competition/nickname.do'> }>(
    '/user/competition/nickname.do',
    {
      schema: {
        tags,
        summary: 'Set the nickname shown on the competition’s leaderboard (from its next ranking)',
        security: userSecurity,
        consumes: postConsumes,
        body: fields({ id: competitionIdField, nickname: nicknameField }, ['id', 'nickname']),
        response: responses(myCompetitionSchema),
      },
    },
    async (request) => ok(await setNickname(station, app.auth.session(request).userId, request.body)),
  );
}

/** mine.do, accounts.do, equity.do. */
function entrantReadRoutes(app: FastifyInstance): void {
  const { station } = app;
  app.get(
    '/user/competition/mine.do',
    {
      schema: {
        tags,
        summary: 'The competitions the user entered or created, with their rank and figures',
        security: userSecurity,
        response: responses({ type: 'array', items: myCompetitionSchema }),
      },
    },
    async (request) => ok(await myCompetitions(station, app.auth.session(request).userId)),
  );
  app.get<{ Querystring: { id: number } }>(
    '/user/competition/accounts.do',
    {
      schema: {
        tags,
        summary: "The entrant's competition accounts (type competition; CNY, HKD, USD) valued now",
        security: userSecurity,
        querystring: fields({ id: competitionIdField }, ['id']),
        response: responses({ type: 'array', items: ref('Account') }),
      },
    },
    async (request) =>
      ok(await competitionAccounts(station, app.auth.session(request).userId, request.query.id)),
  );
  app.get<{ Querystring: { id: number } }>(
    '/user/competition/equity.do',
    {
      schema: {
        tags,
        summary:
          "The entrant's daily equity curve in the competition (Shanghai days; today's from the live ranking)",
        security: userSecurity,
        querystring: fields({ id: competitionIdField }, ['id']),
        response: responses({
          type: 'array',
          items: {
            type: 'object',
            properties: {
              day: { type: 'string' },
              totalAssets: { type: 'number' },
              returnPct: { type: 'number' },
            },
            required: ['day', 'totalAssets', 'returnPct'],
          },
        }),
      },
    },
    async (request) => ok(await equityCurve(station, app.auth.session(request).userId, request.query.id)),
  );
}

export const competitionPlugin: FastifyPluginAsync = async (app) => {
  app.addHook('onRequest', app.auth.requireUser);
  termRoutes(app);
  entryRoutes(app);
  entrantReadRoutes(app);
};
