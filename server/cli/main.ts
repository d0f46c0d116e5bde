/**
 * The operator command line: `npm run station -- <command> [arguments]` (`help` lists the commands,
 * `<command> --help` shows one). Exit codes: 0 done, 1 refused or found wrong, 2 bad usage.
 */
import { ConfigError, loadConfig } from '../config';
import { migrateToLatest, openDatabase, type Station } from '../platform';
import { stationMarket } from '../products';
import { FileClock, systemClock } from '../market';
import {
  asksForHelp,
  CommandFailed,
  describeFailure,
  parseCommandArgs,
  usageOf,
  UsageError,
} from './command';
import { findCommand, runOperatorCommand, USAGE } from './commands';

/** Opens the station's database (migrated) and runs the command on it. */
async function runOnStation(name: string, args: string[]): Promise<number> {
  const config = loadConfig();
  const database = openDatabase({ databaseUrl: config.databaseUrl, sqlitePath: config.sqlitePath });
  try {
    await migrateToLatest(database);
    // The station's own clock: a test's clock file pins the commands' time as it pins the station's.
    const clock = config.clockFile ? new FileClock(config.clockFile) : systemClock;
    const station: Station = {
      db: database.db,
      dialect: database.dialect,
      config,
      clock,
      // The same instruments as the station's (the new-share listings included).
      market: stationMarket(config, clock),
      log: { info: (obj, msg) => console.log(msg, JSON.stringify(obj)) },
    };
    const actor = process.env.USER ?? process.env.LOGNAME ?? 'operator';
    await runOperatorCommand(station, name, args, (line) => console.log(line), actor);
    return 0;
  } finally {
    await database.close();
  }
}

async function run(args: string[]): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    console.log(USAGE);
    return name === undefined ? 2 : 0;
  }
  const command = findCommand(name);
  if (!command) {
    console.error(`Unknown command: ${name}\n\n${USAGE}`);
    return 2;
  }
  if (asksForHelp(rest)) {
    console.log(`Usage: npm run station -- ${usageOf(command)}`);
    return 0;
  }
  try {
    // Bad usage is told before the database is opened.
    parseCommandArgs(command, rest);
    return await runOnStation(name, rest);
  } catch (error) {
    if (error instanceof CommandFailed) return error.exitCode;
    const message = describeFailure(error);
    if (message === null) throw error;
    if (error instanceof UsageError) {
      console.error(`${name}: ${message}\n\nUsage: npm run station -- ${usageOf(command)}`);
      return 2;
    }
    console.error(`${name}: ${message}`);
    return 1;
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? `bad setting: ${error.message}` : error);
    process.exit(1);
  },
);
