import 'reflect-metadata';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import { HotRoutes, type EtagFn } from '../api/hot-routes';
import { installCors } from '../api/install-cors';
import { UnroutedRequestFilter } from '../api/unrouted-request.filter';
import { AppModule } from '../app/app.module';
import { buildInfo } from '../build/build-info';
import { loadConfigFile, type LoadedConfig } from '../config';
import type { Logger } from '../logging/logger';
import { NestLoggerAdapter } from '../logging/nest-logger-adapter';
import { createMetricsRegistry } from '../metrics/metrics-registry';
import { ConfigReloadMetrics } from '../reload/config-reload-metrics';
import { ConfigReloader, type ConfigLoader } from '../reload/config-reloader';
import { systemClock, type Clock } from '../time/clock';
import { realScheduler } from '../time/scheduler';
import { HeapPacer, processHeap } from './heap-pacer';
import { WebConfigEnforcer } from '../web';
import { assembleAlerting } from './assemble-alerting';
import { resolveExternalUrl, type ExternalUrl } from './external-url';
import { parseListenAddress } from './listen-address';
import { installRequestLimits } from './request-limits';
import { SERVER_DEFAULTS, type ServerOptions } from './server-options';
import { RequestBodyReader } from '../api/request-body';
import { RemoteWriteReceiver } from '../remote-write';

/** Go's `http.DefaultMaxHeaderBytes` and the 4 KiB it reads beyond it. */
const GO_MAX_HEADER_BYTES = (1 << 20) + 4096;

/** A started server and the handles to drive it. */
export interface RunningServer {
  /** Base URL the server answers on, e.g. `http://127.0.0.1:9093` (with the route prefix). */
  url: string;
  port: number;
  externalUrl: ExternalUrl;
  reloader: ConfigReloader;
  /** Same as `POST /-/reload`. */
  reload(): Promise<LoadedConfig>;
  /** Stops accepting requests, stops notifying, and writes what is kept on disk. */
  close(): Promise<void>;
}

/** A problem that stops the server from starting; its message is one line for the operator. */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

/**
 * Starts the server: checks the storage directory, loads the configuration (refusing to start on
 * an invalid one), opens the stores kept on disk, builds the alerting graph for the config and
 * serves HTTP. Time and the config loader are inputs so tests can drive them.
 */
export async function startServer(
  options: ServerOptions,
  logger: Logger,
  clock: Clock = systemClock,
  load: ConfigLoader = loadConfigFile,
): Promise<RunningServer> {
  const info = buildInfo();
  logger.info('Starting Alertmanager', { version: info.version, node: info.nodeVersion });
  const listen = parseListenAddress(options.listenAddress);
  // The external URL's default needs the bound port; the route prefix does not.
  const { routePrefix } = resolveExternalUrl(options.externalUrl, options.routePrefix, listen.port);
  const web = options.webConfigFile
    ? openWebConfig(options.webConfigFile, logger, clock)
    : undefined;
  await prepareStorage(options.storagePath);

  logger.info('Loading configuration file', { file: options.configFile });
  const loaded = await load(options.configFile);
  logger.info('Completed loading of configuration file', { file: options.configFile });

  const registry = createMetricsRegistry();
  const reloader = new ConfigReloader(
    loaded,
    load,
    new ConfigReloadMetrics(registry),
    clock,
    logger.with({ component: 'configuration' }),
  );
  // Receivers read the external URL when the graph is built, after the port is known.
  const external = { url: '' };
  const alerting = await assembleAlerting({
    options,
    registry,
    reloader,
    clock,
    logger,
    externalUrl: () => external.url,
  });

  const bodies = new RequestBodyReader(options.maxRequestBytes ?? SERVER_DEFAULTS.maxRequestBytes);
  const remoteWriteReceiver = options.enableRemoteWriteReceiver
    ? new RemoteWriteReceiver(
        alerting.metricStorage,
        logger.with({ component: 'web', handler: 'remote write' }),
      )
    : undefined;
  const parts = { registry, reloader, bodies, remoteWriteReceiver, ...alerting.apiParts };
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forParts(parts),
    new ExpressAdapter(),
    // The API reads request bodies itself, with upstream's limits and error messages.
    { logger: new NestLoggerAdapter(logger), bodyParser: false, httpsOptions: web?.httpsOptions },
  );
  app.disable('x-powered-by');
  if (routePrefix !== '') app.setGlobalPrefix(routePrefix);
  installCors(app, routePrefix, options.corsOrigin);
  app.useGlobalFilters(new UnroutedRequestFilter(app.getHttpAdapter()));
  // The busiest routes skip Express's and Nest's routing; they answer as the controllers do.
  const express = app.getHttpAdapter().getInstance() as { get(setting: string): unknown };
  app
    .get(HotRoutes)
    .install(app.getHttpServer(), routePrefix, express.get('etag fn') as EtagFn | undefined);
  installRequestLimits(
    app.getHttpServer(),
    { getConcurrency: options.getConcurrency ?? 0, timeoutMs: options.webTimeout ?? 0 },
    registry,
  );
  // Installed last, so that the web config's checks come before the limits, the hot routes and
  // Express.
  web?.install(app.getHttpServer());
  // Node refuses request lines and headers over 16 KiB; Go serves up to its
  // DefaultMaxHeaderBytes (1 MiB) plus 4 KiB of slack, so long filter query strings work here too.
  // The parser reads the server's `maxHeaderSize` for each new connection.
  (app.getHttpServer() as { maxHeaderSize?: number }).maxHeaderSize = GO_MAX_HEADER_BYTES;
  try {
    await app.listen(listen.port, listen.host ?? '::');
  } catch (error) {
    await alerting.close();
    throw new StartupError(
      `cannot listen on ${options.listenAddress}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }

  const port = (app.getHttpServer().address() as AddressInfo).port;
  const externalUrl = resolveExternalUrl(options.externalUrl, options.routePrefix, port);
  external.url = externalUrl.url;
  await alerting.start();
  const pacer = options.paceHeap
    ? new HeapPacer({ clock, scheduler: realScheduler(clock), ...processHeap() })
    : undefined;
  pacer?.start();
  logger.info('Listening', { address: options.listenAddress, port, external_url: externalUrl.url });
  const scheme = web?.httpsOptions ? 'https' : 'http';
  if (web) logger.info(`TLS is ${scheme === 'https' ? 'enabled' : 'disabled'}.`, { http2: false });

  const local =
    listen.host && listen.host !== '::' && listen.host !== '0.0.0.0' ? listen.host : '127.0.0.1';
  const hostPart = local.includes(':') ? `[${local}]` : local;
  return {
    url: `${scheme}://${hostPart}:${port}${routePrefix}`,
    port,
    externalUrl,
    reloader,
    reload: () => reloader.reload(),
    close: async () => {
      pacer?.stop();
      await app.close();
      await remoteWriteReceiver?.close();
      await alerting.close();
    },
  };
}

/** The web config for startup; a file that does not load stops the server with its error. */
function openWebConfig(file: string, logger: Logger, clock: Clock): WebConfigEnforcer {
  try {
    return WebConfigEnforcer.open(file, logger.with({ component: 'web' }), clock);
  } catch (error) {
    throw new StartupError(`invalid --web.config.file: ${(error as Error).message}`);
  }
}

async function prepareStorage(path: string): Promise<void> {
  try {
    await mkdir(path, { recursive: true });
  } catch (error) {
    throw new StartupError(
      `cannot use --storage.path "${path}": ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}
