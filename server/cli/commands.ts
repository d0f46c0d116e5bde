/** Every operator command, by group, and the one way to run one of them against a station. */
import { CONTROL_CHARACTERS } from '../../src/shared/validation';
import type { Station } from '../platform';
import { runCommandOf, usageLines, type OperatorCommand } from './command';
import { CONTENT_COMMANDS } from './content-commands';
import { HISTORY_COMMANDS } from './history-commands';
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
  {
    title: 'Market history (real bars to replay: code,time,open,high,low,close,volume or date,open,…,volume)',
    commands: HISTORY_COMMANDS,
  },
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
  return runCommandOf(ALL_COMMANDS, station, name, args, (line) => print(printable(line)), defaultActor);
}

/**
 * What a terminal must not act on beyond CONTROL_CHARACTERS, in text the fields accept: a carriage return
 * that does not start a CRLF line break (it moves back to overwrite the line shown), the invisible direction
 * marks LRM and RLM (U+200E, U+200F: they reorder what follows) and the line and paragraph separators
 * (U+2028, U+2029: some terminals and log viewers break lines at them, so a field could fake a line).
 */
const OPERATOR_ESCAPED = new RegExp(`${CONTROL_CHARACTERS.source}|\r(?!\n)|[\u200E\u200F\u2028\u2029]`, 'g');

/**
 * A line as the operator's terminal may show it: control characters (CONTROL_CHARACTERS), which users' text
 * stored before they were refused may still hold, and the characters of OPERATOR_ESCAPED are written as
 * visible escapes (\x1b, \x0d, \u202e), so no text can clear the screen, set the window title, write the
 * clipboard or overwrite what is shown. Line breaks (\n, \r\n) and tabs stay.
 */
export function printable(line: string): string {
  return line.replace(OPERATOR_ESCAPED, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, '0')}`
      : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
