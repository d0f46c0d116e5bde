/**
 * What every operator command shares: its declaration (name, usage, options, how many arguments), reading
 * its arguments with `node:util` parseArgs in strict mode, the checks of ids, reasons and limits, and the
 * wording of a refusal. A command answers `--help` (or `-h`) with its usage; an unknown option, a missing
 * value or an argument too many is a usage error.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { AppError, type Station } from '../platform';

/** A command's arguments were wrong: the command line prints the message and the usage, and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** What a command runs with. */
export interface CommandContext {
  station: Station;
  print(line: string): void;
  /** The operator's name in the audit log (`--by`, else the login name). */
  actor: string;
}

/** A command's parsed arguments: every option is a string (absent: undefined). */
export interface CommandInput {
  positionals: string[];
  options: Record<string, string | undefined>;
  /** The values of each repeatable option, in order (absent: an empty list). */
  lists: Record<string, string[]>;
}

export interface OperatorCommand {
  name: string;
  /** The usage line(s) after the name, e.g. `<userId> pass|fail --reason "…"`. */
  usage: string;
  summary: string;
  /** The string options it takes, without `--` (`--by` and `--help` are there for every command). */
  options: readonly string[];
  /** Options that may be given more than once (`--name A=x --name B=y`), read into `lists`. */
  repeatable?: readonly string[];
  /** How many positional arguments it takes at most. */
  positionals: number;
  /** Runs the command; a number is the exit code (0 when nothing is returned). */
  run(context: CommandContext, input: CommandInput): Promise<number | void>;
}

/** The command's usage as `--help` prints it. */
export function usageOf(command: OperatorCommand): string {
  const head = `${command.name}${command.usage ? ` ${command.usage}` : ''}`;
  return `${head}\n${' '.repeat(34)}${command.summary}`;
}

/** Lines of the usage, as the overview lists them: name and arguments, then the summary indented. */
export function usageLines(commands: readonly OperatorCommand[]): string {
  return commands.map((command) => `  ${usageOf(command)}`).join('\n');
}

/** Whether the arguments ask for the command's help (before any `--` that ends the options). */
export function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  const options = end === -1 ? args : args.slice(0, end);
  return options.includes('--help') || options.includes('-h');
}

/** Reads a command's arguments; throws UsageError for an unknown option, a missing value, or too many. */
export function parseCommandArgs(command: OperatorCommand, args: readonly string[]): CommandInput {
  const options: ParseArgsConfig['options'] = { by: { type: 'string' } };
  for (const name of command.options) options[name] = { type: 'string' };
  for (const name of command.repeatable ?? []) options[name] = { type: 'string', multiple: true };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...args], options, strict: true, allowPositionals: true });
  } catch (error) {
    // parseArgs explains itself (e.g. "Unknown option '--foo'"); anything else is not a usage error.
    if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) {
      throw new UsageError(error.message);
    }
    throw error;
  }
  if (parsed.positionals.length > command.positionals) {
    const extra = parsed.positionals.slice(command.positionals).join(' ');
    throw new UsageError(`unexpected argument(s): ${extra} (put a text with spaces in quotes)`);
  }
  const values: Record<string, string | undefined> = {};
  const lists: Record<string, string[]> = {};
  for (const name of command.repeatable ?? []) lists[name] = [];
  for (const [name, value] of Object.entries(parsed.values)) {
    if (typeof value === 'string') values[name] = value;
    else if (Array.isArray(value)) lists[name] = value.filter((v): v is string => typeof v === 'string');
  }
  return { positionals: parsed.positionals, options: values, lists };
}

/**
 * Runs `command` (with its raw arguments) if it is one of `commands`; false when it is not. `--help`
 * prints the command's usage. Throws UsageError for bad arguments and AppError for refused actions.
 */
export async function runCommandOf(
  commands: readonly OperatorCommand[],
  station: Station,
  name: string,
  args: readonly string[],
  print: (line: string) => void,
  defaultActor: string,
): Promise<boolean> {
  const command = commands.find((c) => c.name === name);
  if (!command) return false;
  if (asksForHelp(args)) {
    print(`Usage: npm run station -- ${usageOf(command)}`);
    return true;
  }
  const input = parseCommandArgs(command, args);
  const actor = (input.options.by ?? defaultActor).trim().slice(0, 64) || 'operator';
  const code = await command.run({ station, print, actor }, input);
  if (typeof code === 'number' && code !== 0) throw new CommandFailed(code);
  return true;
}

/** A command that ran and found something wrong (e.g. ledger-check): exits with its code, no message. */
export class CommandFailed extends Error {
  override name = 'CommandFailed';
  constructor(readonly exitCode: number) {
    super(`exit code ${exitCode}`);
  }
}

export function idOf(raw: string | undefined, what: string): number {
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id < 1) throw new UsageError(`not a ${what}: ${raw ?? '(missing)'}`);
  return id;
}

/** The reason every change is audited with (DOMAIN.md: operator actions are audited). */
export function reasonOf(options: CommandInput['options'], what: 'change' | 'decision' = 'change'): string {
  const reason = (options.reason ?? '').trim();
  if (reason === '')
    throw new UsageError(`--reason "…" is required: every ${what} is audited with its reason`);
  if (reason.length > 500) throw new UsageError('--reason is at most 500 characters');
  return reason;
}

export function limitOf(options: CommandInput['options'], fallback: number): number {
  if (options.limit === undefined) return fallback;
  const n = Number(options.limit);
  if (!Number.isInteger(n) || n < 1 || n > 10_000)
    throw new UsageError('--limit is a whole number from 1 to 10000');
  return n;
}

/** An instant as the listings show it: ISO 8601 in UTC, whole seconds. */
export const timeText = (t: number | null) =>
  t === null ? '-' : new Date(t).toISOString().replace('.000Z', 'Z');

/** The operator's explanation of a failure, or null when it is not a usage error or a refusal. */
export function describeFailure(error: unknown): string | null {
  if (error instanceof UsageError) return error.message;
  if (error instanceof AppError) {
    if (error.code === 'NOT_FOUND') return 'not found (no such user, or nothing pending)';
    const detail = error.params?.detail ?? (error.fields ? JSON.stringify(error.fields) : '');
    return `refused: ${error.code}${detail ? ` (${detail})` : ''}`;
  }
  return null;
}
