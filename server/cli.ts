/**
 * The operator command line: `npm run station -- <command>`.
 *   ledger-check   verify that every account's balance equals the sum of its ledger entries
 */
import { ConfigError, loadConfig } from './config';
import { migrateToLatest, openDatabase } from './db/database';
import { checkLedger } from './domain/ledger';

const USAGE = `Usage: npm run station -- <command>

Commands:
  ledger-check   verify that every account balance equals the sum of its ledger entries
  help           show this text

The database is the one the station uses (DATABASE_URL, or SQLite in DATA_DIR).`;

async function ledgerCheck(): Promise<number> {
  const config = loadConfig();
  const database = openDatabase({ databaseUrl: config.databaseUrl, sqlitePath: config.sqlitePath });
  try {
    await migrateToLatest(database);
    const result = await checkLedger(database.db);
    if (result.mismatches.length === 0) {
      console.log(
        `ledger-check: OK: ${result.accounts} accounts, ${result.entries} entries, every balance matches its ledger`,
      );
      return 0;
    }
    console.log(
      `ledger-check: ${result.mismatches.length} of ${result.accounts} accounts do not match their ledger:`,
    );
    for (const m of result.mismatches) {
      console.log(
        `  account ${m.accountId} (user ${m.userId}, ${m.type}): balance ${m.balance} ≠ entries ${m.entriesSum} (minor units)`,
      );
    }
    return 1;
  } finally {
    await database.close();
  }
}

async function run(args: string[]): Promise<number> {
  const [command] = args;
  switch (command) {
    case 'ledger-check':
      return ledgerCheck();
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
