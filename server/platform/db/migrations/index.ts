/** Migrations in code, in order of their names; the Migrator records which ran. */
import type { Migration } from 'kysely';
import type { DialectName } from '../database';
import { initialSchema } from './0001-initial';
import { identitySchema } from './0003-identity';
import { tradingSchema } from './0004-trading';
import { walletSchema } from './0005-wallet';
import { contentSchema } from './0006-content';
import { newSharesSchema } from './0007-newshares';
import { fundsSchema } from './0009-funds';
import { blockTradesVipSchema } from './0008-blocktrades-vip';
import { doubleEntryLedgerSchema } from './0010-double-entry-ledger';
import { positionsByAccountSchema } from './0011-positions-by-account';
import { orderFillsSchema } from './0012-order-fills';
import { positionFxSchema } from './0013-position-fx';
import { permissionRequestsSchema } from './0014-permission-requests';
import { competitionsSchema } from './0015-competitions';
import { priceAlertsSchema } from './0017-price-alerts';
import { historySchema } from './0018-history';
import { replaySchema } from './0019-replay';

export function migrations(dialect: DialectName): Record<string, Migration> {
  return {
    '0001-initial': initialSchema(dialect),
    '0003-identity': identitySchema(dialect),
    '0004-trading': tradingSchema(dialect),
    '0005-wallet': walletSchema(dialect),
    '0006-content': contentSchema(dialect),
    '0007-newshares': newSharesSchema(dialect),
    '0009-funds': fundsSchema(dialect),
    '0008-blocktrades-vip': blockTradesVipSchema(dialect),
    '0010-double-entry-ledger': doubleEntryLedgerSchema(dialect),
    '0011-positions-by-account': positionsByAccountSchema(),
    '0012-order-fills': orderFillsSchema(),
    '0013-position-fx': positionFxSchema(),
    '0014-permission-requests': permissionRequestsSchema(),
    '0015-competitions': competitionsSchema(dialect),
    '0017-price-alerts': priceAlertsSchema(dialect),
    '0018-history': historySchema(),
    '0019-replay': replaySchema(),
  };
}
