/** Every operator command, by group, and the one way to run one of them against a station. */
import type { Station } from '../platform';
import { runCommandOf, usageLines, type OperatorCommand } from './command';
import { CONTENT_COMMANDS } from './content-commands';
import { IDENTITY_COMMANDS } from './identity-commands';
import { LEDGER_COMMANDS } from './ledger-commands';
import { WALLET_COMMANDS } from './wallet-commands';

export const COMMAND_GROUPS: readonly { title: string; commands: readonly OperatorCommand[] }[] = [
  { title: 'Ledger', commands: LEDGER_COMMANDS },
  { title: 'Identity commands', commands: IDENTITY_COMMANDS },
  {
    title: 'Content commands (news, notices, college articles, site pages; Markdown)',
    commands: CONTENT_COMMANDS,
  },
  { title: 'Wallet commands', commands: WALLET_COMMANDS },
];

const ALL_COMMANDS = COMMAND_GROUPS.flatMap((group) => group.commands);

export function findCommand(name: string): OperatorCommand | undefined {
  return ALL_COMMANDS.find((command) => command.name === name);
}

export const USAGE = `Usage: npm run station -- <command> [arguments] [--by name]
       npm run station -- <command> --help

${COMMAND_GROUPS.map((group) => `${group.title}:\n${usageLines(group.commands)}`).join('\n\n')}

Options: --by <name> names the operator in the audit log (default: $USER).
A value that starts with "-" goes after "--" (e.g. -- -1) or as --option=value.
The database is the one the station uses (DATABASE_URL, or SQLite in DATA_DIR).`;

/**
 * Runs one operator command with its raw arguments; prints with `print`. False when there is no such
 * command. Throws UsageError for bad arguments, AppError (e.g. NOT_FOUND) for refused actions, and
 * CommandFailed when the command ran and found something wrong.
 */
export function runOperatorCommand(
  station: Station,
  name: string,
  args: readonly string[],
  print: (line: string) => void,
  defaultActor: string,
): Promise<boolean> {
  return runCommandOf(ALL_COMMANDS, station, name, args, print, defaultActor);
}
