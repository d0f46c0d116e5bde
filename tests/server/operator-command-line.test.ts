import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_GROUPS, runOperatorCommand } from '../../server/cli/commands';
import type { FixedClock } from '../../server/market/clock';
import { api, dbTargets, register, startStation, type TestStation } from './helpers/station';

const run = promisify(execFile);

describe.each(dbTargets)('operator commands, their usage and their options (%s)', (db) => {
  let station: TestStation<FixedClock>;

  beforeAll(async () => {
    station = await startStation({ db });
  });
  afterAll(async () => station?.close());

  const auditCount = async () =>
    (await station.app.station.db.selectFrom('audit_log').select('id').execute()).length;

  it('answers --help for every command with its usage, and does nothing else', async () => {
    const before = await auditCount();
    for (const { commands } of COMMAND_GROUPS) {
      for (const command of commands) {
        const lines: string[] = [];
        const args = command.name === 'grant' ? ['1', 'vip_picks', '--help'] : ['--help'];
        expect(
          await runOperatorCommand(station.app.station, command.name, args, (l) => lines.push(l), 'tester'),
        ).toBe(true);
        expect(lines.join('\n')).toMatch(new RegExp(`^Usage: npm run station -- ${command.name}\\b`));
        expect(lines.join('\n')).toContain(command.summary);
      }
    }
    expect(await auditCount()).toBe(before);
  });

  it('refuses an unknown option, a missing value and an argument too many, changing nothing', async () => {
    const me = await register(api(station.url));
    const op = (...args: string[]) =>
      runOperatorCommand(station.app.station, args[0]!, args.slice(1), () => {}, 'tester');
    const id = String(me.user.id);
    await expect(op('grant', id, 'vip_picks', '--reason', 'r', '--colour', 'red')).rejects.toMatchObject({
      name: 'UsageError',
      message: expect.stringContaining("Unknown option '--colour'"),
    });
    await expect(op('grant', id, 'vip_picks', '--reason')).rejects.toMatchObject({ name: 'UsageError' });
    await expect(op('grant', id, 'vip_picks', '--reason', '--by', 'me')).rejects.toMatchObject({
      name: 'UsageError',
    });
    await expect(op('grant', id, 'vip_picks', 'block_trade', '--reason', 'r')).rejects.toMatchObject({
      name: 'UsageError',
      message: expect.stringContaining('block_trade'),
    });
    const permissions = await station.app.station.db
      .selectFrom('user_permissions')
      .select('permission')
      .where('user_id', '=', me.user.id)
      .execute();
    expect(permissions).toEqual([]);
    // The --option=value form reads as the two-word one.
    await op('grant', id, 'vip_picks', '--reason=from a test', '--by=tester2');
    expect(
      await station.app.station.db
        .selectFrom('audit_log')
        .select(['actor', 'reason'])
        .where('user_id', '=', me.user.id)
        .execute(),
    ).toEqual([{ actor: 'tester2', reason: 'from a test' }]);
  });

  it('says nothing is such a command: false, so the command line can tell', async () => {
    expect(await runOperatorCommand(station.app.station, 'sell-everything', [], () => {}, 'tester')).toBe(
      false,
    );
  });
});

describe('npm run station -- <command>, as a process', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'paperdesk-cli-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' };
  const station = (...args: string[]) =>
    run('npx', ['tsx', 'server/cli/main.ts', ...args], { env }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );

  it('prints a command’s usage for --help (exit 0) and refuses an unknown option with its usage (exit 2)', async () => {
    const [help, unknown, missing, unknownCommand] = await Promise.all([
      station('deposit', '--help'),
      station('deposits', '--colour', 'red'),
      station('users', '--limit'),
      station('sell-everything'),
    ]);
    expect(help).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('deposit <id> success|fail|cancel'),
    });
    expect(unknown).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(
        /deposits: Unknown option '--colour'[\s\S]*Usage: npm run station -- deposits/,
      ),
    });
    expect(missing).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("'--limit <value>' argument missing"),
    });
    expect(unknownCommand).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Unknown command: sell-everything'),
    });
  }, 60_000);
});
