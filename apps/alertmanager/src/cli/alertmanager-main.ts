import { versionText } from '../build/build-info';
import { StreamLogger } from '../logging/stream-logger';
import { startServer, type RunningServer } from '../server/start-server';
import { alertmanagerCommand, clusterFlagsGiven, serverOptionsFrom } from './alertmanager-flags';
import { enabledFeatures } from './feature-flags';
import { CommandLineError } from './flags/flag-spec';
import { parseCommandLine } from './flags/parse-command-line';
import { renderUsage } from './flags/render-usage';

const PROGRAM = 'redisx-alertmanager';
const SHUTDOWN_GRACE_MS = 15_000;

/** Entry point of the `redisx-alertmanager` binary. */
export async function main(argv: string[]): Promise<void> {
  let parsed;
  let options;
  try {
    parsed = parseCommandLine(alertmanagerCommand, argv);
    options = parsed.help || parsed.flags['version'] ? undefined : serverOptionsFrom(parsed);
  } catch (error) {
    if (!(error instanceof CommandLineError)) throw error;
    process.stderr.write(`${PROGRAM}: error: ${error.message}, try --help\n`);
    process.exitCode = 1;
    return;
  }
  if (parsed.help) {
    process.stdout.write(renderUsage(PROGRAM, alertmanagerCommand, []));
    return;
  }
  if (parsed.flags['version'] || !options) {
    process.stdout.write(versionText(PROGRAM));
    return;
  }

  const logger = new StreamLogger(options.logLevel, options.logFormat);
  for (const option of enabledFeatures(parsed).unknown) {
    logger.warn('Unknown option for --enable-feature', { option });
  }
  if (options.promqlDelayedNameRemoval) {
    logger.info('Experimental PromQL delayed name removal enabled.');
  }
  for (const flag of clusterFlagsGiven(parsed)) {
    logger.warn(
      'Gossip clustering is not supported; replicas share state through --cluster.redis-url',
      { flag },
    );
  }

  let server: RunningServer;
  try {
    server = await startServer({ ...options, paceHeap: true }, logger);
  } catch (error) {
    logger.error('Startup failed', { err: (error as Error).message });
    process.exitCode = 1;
    return;
  }

  process.on('SIGHUP', () => {
    // A failed reload is logged and counted by the reloader; the running config stays.
    server.reload().catch(() => undefined);
  });
  const shutdown = (signal: string) => {
    logger.info(`Received ${signal}, exiting gracefully...`);
    const forced = setTimeout(() => {
      logger.error('Graceful shutdown timed out', { after_ms: SHUTDOWN_GRACE_MS });
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    forced.unref();
    server.close().then(
      () => process.exit(0),
      (error: Error) => {
        logger.error('Shutdown failed', { err: error.message });
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}
