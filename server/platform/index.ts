/**
 * The platform area's one door (CONVENTIONS.md "A folder per area, a door per folder"): what other areas and
 * the station's root use of it. Other areas import it from here, never from its modules.
 */
// The request and instance decorations every area's routes rely on (a module augmentation of fastify).
import './http/fastify-types';

export { type BlockTradeBuysTable, type VipBuysTable, type VipPicksTable } from './db/blocktrades-vip-schema';
export { type ContentItemsTable, type ContentKind } from './db/content-schema';
export { isUniqueViolation, migrateToLatest, openDatabase, type DialectName } from './db/database';
export { type FundTradesTable } from './db/funds-schema';
export { type NewshareIssuesTable, type NewshareSubscriptionsTable } from './db/newshares-schema';
export { placeholders, prepared, type PreparedQuery } from './db/prepared';
export {
  type AccountRow,
  type AllocationRow,
  type CompetitionRow,
  type DB,
  type Db,
  type DbOrTx,
  type ExchangesTable,
  type HouseAccount,
  type LedgerRow,
  type OrderRow,
  type PositionRow,
  type RechargesTable,
  type Tx,
  type UserMessageRow,
  type PriceAlertRow,
  type UserRow,
  type WithdrawalsTable,
} from './db/schema';
export { AppError, assertFields, lotsProblem } from './errors';
export { BodyCache } from './http/cached-body';
export { fromFrameworkError, installErrorHandler, ok, sendFailure } from './http/envelope';
export { openEventStream } from './http/event-stream';
export { type FieldRule } from './http/fastify-types';
export { installFieldChecks } from './http/field-checks';
export { installRequestLog, logSerializers } from './http/request-log';
export { clientErrorHandler } from './http/client-errors';
export { hardeningPlugin } from './http/hardening';
export { registerOpenApi } from './http/openapi';
export { regionPlugin } from './http/region';
export { installRouteRegistry } from './http/route-registry';
export { lazySchemas } from './http/lazy-schemas';
export { scaleOutPlugin } from './http/scale-out';
export {
  MINUTE_BARS_DESCRIPTION,
  SHARED_SCHEMAS,
  accountTypeField,
  addSharedSchemas,
  barsResponse,
  beforeField,
  dayBarsLimitField,
  dayPeriodField,
  fields,
  inviteCodeField,
  lotsField,
  pageNumField,
  pageOf,
  pageSizeField,
  passwordField,
  phoneField,
  postConsumes,
  ref,
  requestIdField,
  responses,
  smsCodeField,
  stockCodeField,
  stockMarketField,
  userSecurity,
} from './http/schemas';
export { appPathname, isAppRoute, registerStatic, type StaticSite } from './http/static';
export {
  BASE_LOCALE,
  DEFAULT_LOCALES_DIR,
  amountIn,
  fillTemplate,
  loadTranslator,
  parseStationText,
  stationText,
  type Messages,
  type TextParams,
} from './i18n';
export { answerOnce, requestOutcome, runOnce, storedAnswer } from './idempotency';
export {
  clearLoginFailures,
  databaseRateLimiter,
  localDay,
  recordLoginFailure,
  reserveLoginAttempt,
  unlockLogin,
  type Limit,
  type LoginGuardSettings,
  type Taken,
} from './rate-limit';
export { type TickBus } from './redis';
export { sessionCacheOf } from './session-cache';
export { type Station } from './station';
export { TooLargeError, uploadStorage } from './storage';
export { DAY_MS, MINUTE_MS, tzOffsetMinutes } from './time';
