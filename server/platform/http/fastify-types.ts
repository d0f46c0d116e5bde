/** What the station adds to Fastify's types: its decorators and the route config for field messages. */
import type { ValidationKey } from '../../../src/shared/validation';
import type { Config } from '../../config';
import type { DialectName } from '../db/database';
import type { Db } from '../db/schema';
import type { Station } from '../station';
import type { Engine } from '../../trading';
import type { SessionInfo, Auth } from '../../identity';
import type { Translator } from '../i18n';
import type { Clock, MarketService, ReplayClock } from '../../market';
import type { Scheduler } from '../../jobs';
import type { MessageFeed } from '../../ledger';

/** Gives the message key of a field from its raw value (null when the value is fine). */
export type FieldRule = (raw: unknown) => ValidationKey | null;

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    dialect: DialectName;
    clock: Clock;
    market: MarketService;
    /** MARKET_SOURCE=replay: the replay's clock (also `clock`), with where it stands; null in a simulation. */
    replay: ReplayClock | null;
    auth: Auth;
    i18n: Translator;
    station: Station;
    /** The trading engine (triggers, stops, liquidations, deferred fees): app.engine.step(). */
    engine: Engine;
    /** The KYC rule reviewer: decides what is due at the station's clock; returns how many. */
    kycReviewer: { run(): Promise<number> };
    /** The competitions' ranking job: takes every due ranking at the station's clock; how many. */
    competitionRanking: { run(): Promise<number> };
    /** The station's periodic steps (server/jobs): started by whoever starts the station. */
    jobs: Scheduler;
    /** The users' open message streams in this process (server/ledger/message-feed.ts). */
    messageFeed: MessageFeed;
    /**
     * Compiles every route's request and answer schemas now (they are compiled on a route's first call
     * otherwise: lazy-schemas.ts); throws the first error. The entry point calls it before listening.
     */
    compileSchemas(): void;
  }
  interface FastifyRequest {
    /** Set by auth.requireUser on /user/ routes. */
    session: SessionInfo | null;
  }
  interface FastifyContextConfig {
    /** Per-field message rules used when a request fails schema validation. */
    fieldRules?: Record<string, FieldRule>;
  }
}
