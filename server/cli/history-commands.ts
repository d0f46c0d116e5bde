/**
 * The operator's history command: imports real day and minute bars from CSV files, for replaying what
 * really happened instead of the simulation. Every file is checked before anything is written; a problem
 * in any file and nothing is imported (exit 1).
 */
import { readFileSync } from 'node:fs';
import {
  importHistory,
  parseNameOption,
  readNamesCsv,
  type GivenName,
  type HistoryFileSummary,
  type HistoryProblem,
  readReplayPoint,
  replayedAt,
  setReplayPaused,
  type ReplayPoint,
} from '../market';
import { audit } from '../ledger';
import { reasonOf, UsageError, type CommandInput, type OperatorCommand } from './command';

/** How many problems a refused import prints (the rest are counted). */
const PROBLEMS_SHOWN = 20;

function readText(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`cannot read ${what} ${file}`);
  }
}

/** The names the command line gives: the --names file's, then each --name (which wins). */
function namesOf(input: CommandInput): { names: Map<string, GivenName>; problems: HistoryProblem[] } {
  const file = input.options.names;
  const read =
    file === undefined
      ? { names: new Map<string, GivenName>(), problems: [] }
      : readNamesCsv(file, readText(file, '--names file'));
  for (const raw of input.lists.name ?? []) {
    const named = parseNameOption(raw);
    if (typeof named === 'string') throw new UsageError(named);
    read.names.set(named.code, { name: named.name, market: read.names.get(named.code)?.market ?? null });
  }
  return read;
}

const problemLine = (p: HistoryProblem) => `${p.file}:${p.line}: ${p.message}`;

function summaryLine(s: HistoryFileSummary): string {
  const codes = s.codes.length <= 5 ? s.codes.join(' ') : `${s.codes.slice(0, 5).join(' ')} …`;
  return (
    `${s.file}: ${s.codes.length} code(s) (${codes}), ${s.dayBars} day bar(s), ` +
    `${s.minuteBars} minute bar(s), ${s.from} to ${s.to}`
  );
}

const importHistoryCommand: OperatorCommand = {
  name: 'import-history',
  usage: 'FILE.csv... [--name CODE=NAME ...] [--names names.csv]',
  summary: 'import real day and minute bars from CSV files; all are checked before any is written',
  options: ['names'],
  repeatable: ['name'],
  positionals: Infinity,
  async run({ station, print }, input) {
    if (input.positionals.length === 0) throw new UsageError('import-history: name at least one CSV file');
    const { names, problems: nameProblems } = namesOf(input);
    const texts = input.positionals.map((file) => ({ file, text: readText(file, 'file') }));
    const result =
      nameProblems.length > 0
        ? { imported: false as const, problems: nameProblems }
        : await importHistory(station, texts, names);
    if (!result.imported) {
      for (const problem of result.problems.slice(0, PROBLEMS_SHOWN)) print(problemLine(problem));
      const more = result.problems.length - PROBLEMS_SHOWN;
      if (more > 0) print(`… and ${more} more problem(s)`);
      print(`import-history: nothing imported (${result.problems.length} problem(s))`);
      return 1;
    }
    for (const summary of result.files) print(summaryLine(summary));
    const codes = new Set(result.files.flatMap((s) => s.codes));
    const days = result.files.reduce((sum, s) => sum + s.dayBars, 0);
    const minutes = result.files.reduce((sum, s) => sum + s.minuteBars, 0);
    const from = result.files.map((s) => s.from).sort()[0];
    const to = result.files
      .map((s) => s.to)
      .sort()
      .at(-1);
    print(
      `import-history: imported ${result.files.length} file(s): ${codes.size} code(s), ${days} day bar(s), ` +
        `${minutes} minute bar(s), ${from} to ${to}`,
    );
  },
};

/** A replayed instant as the operator reads it: UTC, to the second. */
const shownTime = (t: number) => `${new Date(t).toISOString().slice(0, 19).replace('T', ' ')} UTC`;

function describeReplay(point: ReplayPoint, wall: number): string {
  const at = shownTime(replayedAt(point, wall));
  return point.paused
    ? `replay of ${point.from} at ${point.speed}×: paused at ${at}`
    : `replay of ${point.from} at ${point.speed}×: running, now ${at}`;
}

const replayCommand: OperatorCommand = {
  name: 'replay',
  usage: 'status | pause --reason "…" | resume --reason "…"',
  summary:
    'where the replay (MARKET_SOURCE=replay) stands; pause or resume it for every station process (within a second)',
  options: ['reason'],
  positionals: 1,
  async run({ station, print, actor }, input) {
    const action = input.positionals[0];
    if (action !== 'status' && action !== 'pause' && action !== 'resume')
      throw new UsageError('replay: say status, pause or resume');
    const wall = station.clock.now();
    if (action === 'status') {
      const point = await readReplayPoint(station.db);
      print(point ? describeReplay(point, wall) : 'replay: no replay has run on this database');
      return point ? 0 : 1;
    }
    const reason = reasonOf(input.options);
    const change = await setReplayPaused(station.db, action === 'pause', wall);
    if (!change) {
      print('replay: no replay has run on this database: start the station with MARKET_SOURCE=replay first');
      return 1;
    }
    if (change.changed) {
      await audit(station.db, {
        time: wall,
        actor,
        action: `replay.${action}`,
        userId: null,
        reason,
        detail: { from: change.point.from, replayedAt: change.point.marketMs },
      });
    }
    print(
      change.changed
        ? describeReplay(change.point, wall)
        : `replay: already ${action === 'pause' ? 'paused' : 'running'}; ${describeReplay(change.point, wall)}`,
    );
  },
};

export const HISTORY_COMMANDS: readonly OperatorCommand[] = [importHistoryCommand, replayCommand];
