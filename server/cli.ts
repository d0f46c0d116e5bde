/**
 * The operator command line: `npm run station -- <command>`.
 *   ledger-check   verify that every posting sums to zero and every balance equals the sum of its entries
 *   users, kyc, grant, revoke, allow-bank-change, audit, site-settings, site-set (domain/operator.ts)
 */
import { ConfigError, loadConfig } from './config';
import { migrateToLatest, openDatabase } from './db/database';
import type { Station } from './domain/context';
import { checkLedger, describeLedgerCheck } from './domain/ledger';
import { describeFailure, OPERATOR_USAGE, runOperatorCommand } from './domain/operator';
import { CONTENT_USAGE, runContentCommand } from './domain/content-operator';
import { runWalletCommand, WALLET_USAGE } from './domain/wallet-operator';
import { stationMarket } from './domain/newshare-calendar';
import { systemClock } from './market/clock';

const USAGE = `Usage: npm run station -- <command>

Commands:
  ledger-check   verify that every posting sums to zero per currency and every account balance
                 equals the sum of its ledger entries
  help           show this text

${OPERATOR_USAGE}

${CONTENT_USAGE}

${WALLET_USAGE}

The database is the one the station uses (DATABASE_URL, or SQLite in DATA_DIR).`;

async function ledgerCheck(): Promise<number> {
  const config = loadConfig();
  const database = openDatabase({ databaseUrl: config.databaseUrl, sqlitePath: config.sqlitePath });
  try {
    await migrateToLatest(database);
    const result = await checkLedger(database.db);
    for (const line of describeLedgerCheck(result)) console.log(line);
    return result.mismatches.length === 0 && result.unbalanced.length === 0 ? 0 : 1;
  } finally {
    await database.close();
  }
}

/** Opens the station's database and runs an identity command; 0 done, 1 refused, 2 bad usage. */
async function operatorCommand(command: string, args: string[]): Promise<number | null> {
  const config = loadConfig();
  const database = openDatabase({ databaseUrl: config.databaseUrl, sqlitePath: config.sqlitePath });
  try {
    await migrateToLatest(database);
    const station: Station = {
      db: database.db,
      dialect: database.dialect,
      config,
      clock: systemClock,
      // The same instruments as the station's (the new-share listings included).
      market: stationMarket(config, systemClock),
      log: { info: (obj, msg) => console.log(msg, JSON.stringify(obj)) },
    };
    const actor = process.env.USER ?? process.env.LOGNAME ?? 'operator';
    try {
      const print = (line: string) => console.log(line);
      const known =
        (await runOperatorCommand(station, command, args, print, actor)) ||
        (await runContentCommand(station, command, args, print, actor)) ||
        (await runWalletCommand(station, command, args, print, actor));
      return known ? 0 : null;
    } catch (error) {
      const message = describeFailure(error);
      if (message === null) throw error;
      console.error(`${command}: ${message}`);
      return error instanceof Error && error.name === 'UsageError' ? 2 : 1;
    }
  } finally {
    await database.close();
  }
}

async function run(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  switch (command) {
    case 'ledger-check':
      return ledgerCheck();
    case 'users':
    case 'kyc':
    case 'grant':
    case 'revoke':
    case 'allow-bank-change':
    case 'audit':
    case 'site-settings':
    case 'site-set':
    case 'content-list':
    case 'content-show':
    case 'content-edit':
    case 'content-add':
    case 'service-inbox':
    case 'service-thread':
    case 'service-reply':
    case 'deposits':
    case 'deposit':
    case 'withdrawals':
    case 'withdrawal':
      return (await operatorCommand(command, rest)) ?? 2;
    case undefined:
    case 'help':
    case '--help':
      console.log(USAGE);
      return command === undefined ? 2 : 0;
    default:
      console.error(`Unknown command: ${command}\n\n${USAGE}`);
      return 2;
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? `bad setting: ${error.message}` : error);
    process.exit(1);
  },
);
