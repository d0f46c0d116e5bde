/** The test station's entry point: config → database → market → HTTP, with a graceful shutdown. */
import { ConfigError, loadConfig, type Config } from './config';
import { buildServer } from './app';
import { FileClock } from './market';
import { STEP_EVERY_MS } from './jobs';

/** The URL people open; a wildcard listen address is shown as localhost. */
function publicUrl(config: Config, port: number): string {
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const shown = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${shown}:${port}/`;
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`PaperDesk test station: bad setting: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  // Logs go to stderr, so stdout carries exactly one line: the URL people open.
  // CLOCK_FILE (test-only) pins the clock of several processes at once; the engine still steps every second.
  const clock = config.clockFile
    ? { clock: new FileClock(config.clockFile), engineIntervalMs: STEP_EVERY_MS }
    : {};
  const app = await buildServer(config, { logStream: process.stderr, ...clock });
  let closing = false;
  // Every schema compiled before the first caller: a bad one stops the start, no request pays for one.
  await app.ready();
  app.compileSchemas();
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(`PaperDesk test station: ${publicUrl(config, port)}`);
  // The periodic steps: the engine, deposit, withdrawal and KYC reviews, new-share and allocation events.
  app.jobs.start();
  // Every instrument's history, built in the background one instrument at a time (see MarketService.warmUp).
  const started = Date.now();
  void app.market
    .warmUp(() => closing)
    .then((count) => {
      app.log.info({ instruments: count, ms: Date.now() - started }, 'market history warmed up');
    });

  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    // The jobs' last runs finish before the database closes (app.close would stop them too, later).
    app.jobs
      .stop()
      .then(() => app.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          app.log.error({ err: error }, 'error while shutting down');
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error('PaperDesk test station failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
