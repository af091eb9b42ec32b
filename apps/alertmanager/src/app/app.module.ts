import { type DynamicModule, Module } from '@nestjs/common';
import type { Registry } from 'prom-client';
import { HotRoutes } from '../api/hot-routes';
import { LifecycleController } from '../api/lifecycle.controller';
import { MetricsController } from '../api/metrics.controller';
import {
  ALERT_API_CONTROLLERS,
  alertApiProviders,
  AlertsApi,
  SilencesApi,
  type StatusApi,
} from '../api/v2';
import { Logger } from '../logging/logger';
import { MetricsRegistry } from '../metrics/metrics-registry';
import { ConfigReloader } from '../reload/config-reloader';
import { Clock } from '../time/clock';
import { ServerOptions } from '../server/server-options';
import { RequestBodyReader } from '../api/request-body';

/** The plain objects the server is assembled from; built outside Nest so tests can build them. */
export interface AppParts {
  options: ServerOptions;
  logger: Logger;
  clock: Clock;
  registry: Registry;
  reloader: ConfigReloader;
  alertsApi: AlertsApi;
  statusApi: StatusApi;
  silencesApi: SilencesApi;
  bodies: RequestBodyReader;
}

/** Wires the HTTP layer to the server's parts. It holds no logic of its own. */
@Module({})
export class AppModule {
  static forParts(parts: AppParts): DynamicModule {
    return {
      module: AppModule,
      controllers: [LifecycleController, MetricsController, ...ALERT_API_CONTROLLERS],
      providers: [
        { provide: ServerOptions, useValue: parts.options },
        { provide: Logger, useValue: parts.logger },
        { provide: Clock, useValue: parts.clock },
        { provide: MetricsRegistry, useValue: parts.registry },
        { provide: ConfigReloader, useValue: parts.reloader },
        ...alertApiProviders(parts),
        {
          provide: HotRoutes,
          useFactory: (alerts: AlertsApi, silences: SilencesApi, bodies: RequestBodyReader) =>
            new HotRoutes(alerts, silences, bodies),
          inject: [AlertsApi, SilencesApi, RequestBodyReader],
        },
      ],
    };
  }
}
