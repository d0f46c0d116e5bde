/** What the domain services need from the station: the database, settings, time and the market. */
import type { Config } from '../config';
import type { DialectName } from './db/database';
import type { Db } from './db/schema';
import type { Clock, MarketService } from '../market';
import type { RateLimiter } from './rate-limit';

export interface StationLog {
  info(obj: object, msg: string): void;
}

export interface Station {
  db: Db;
  dialect: DialectName;
  config: Config;
  clock: Clock;
  market: MarketService;
  log: StationLog;
  /** Where rate-limit counters live: the database when unset, Redis in scale-out mode (REDIS_URL). */
  rateLimiter?: RateLimiter;
}
