import { type DynamicModule, Module } from '@nestjs/common';
import type { Registry } from 'prom-client';
import { AlertIntake } from '../alerts/alert-intake';
import {
  ALERT_API_CONTROLLERS,
  alertApiProviders,
  PROMETHEUS_API_CONTROLLERS,
  prometheusApiProviders,
  type AlertApiParts,
  type PrometheusApiParts,
} from '../api';
import { HotRoutes } from '../api/hot-routes';
import { LifecycleController } from '../api/lifecycle.controller';
import { MetricsController } from '../api/metrics.controller';
import { RequestBodyReader } from '../api/request-body';
import { READY_ONCE_LISTENING, ServerReadiness } from '../api/server-readiness';
import { SilencesApi } from '../api/v2';
import { MetricsRegistry } from '../metrics/metrics-registry';
import { ConfigReloader } from '../reload/config-reloader';
import { UiAssets, UiController } from '../ui';

/** The plain objects the server is assembled from; built outside Nest so tests can build them. */
export interface AppParts extends AlertApiParts, PrometheusApiParts {
  registry: Registry;
  reloader: ConfigReloader;
  /** What `/-/ready` waits for beyond listening; none: nothing. */
  readiness?: ServerReadiness;
}

/** Wires the HTTP layer to the server's parts. It holds no logic of its own. */
@Module({})
export class AppModule {
  static forParts(parts: AppParts): DynamicModule {
    return {
      module: AppModule,
      controllers: [
        LifecycleController,
        MetricsController,
        ...PROMETHEUS_API_CONTROLLERS,
        ...ALERT_API_CONTROLLERS,
        UiController,
      ],
      providers: [
        { provide: MetricsRegistry, useValue: parts.registry },
        { provide: ConfigReloader, useValue: parts.reloader },
        { provide: ServerReadiness, useValue: parts.readiness ?? READY_ONCE_LISTENING },
        { provide: UiAssets, useValue: new UiAssets() },
        ...alertApiProviders(parts),
        ...prometheusApiProviders(parts),
        {
          provide: HotRoutes,
          useFactory: (intake: AlertIntake, silences: SilencesApi, bodies: RequestBodyReader) =>
            new HotRoutes(intake, silences, bodies),
          inject: [AlertIntake, SilencesApi, RequestBodyReader],
        },
      ],
    };
  }
}
