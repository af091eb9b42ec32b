import type { Provider, Type } from '@nestjs/common';
import { AlertIntake } from '../alerts/alert-intake';
import { RuleManager } from '../rules';
import { ScrapeManager } from '../scrape';
import { QueryRunner } from './prometheus/query-request';
import { QueryApiController } from './prometheus/query-api.controller';
import { FormatQueryController } from './prometheus/format-query.controller';
import { ExemplarQuerier } from './prometheus/exemplars-api';
import { ExemplarsApiController } from './prometheus/exemplars-api.controller';
import { MetadataApiController } from './prometheus/metadata-api.controller';
import { RulesApiController } from './prometheus/rules-api.controller';
import { PrometheusStatusApi } from './prometheus/status-api';
import { StatusApiController } from './prometheus/status-api.controller';
import { RemoteWriteController, RemoteWriteEndpoint } from './prometheus/remote-write.controller';
import type { RemoteWriteReceiver } from '../remote-write';
import { RequestBodyReader } from './request-body';
import { AlertsV1Controller } from './v1/alerts-v1.controller';
import { RemovedV1Controller } from './v1/removed-v1.controller';
import {
  AlertsApi,
  AlertsV2Controller,
  ApiV2NotFoundController,
  ExtensionsV2Controller,
  NotificationsApi,
  RoutesApi,
  SilencesApi,
  SilencesV2Controller,
  StatusApi,
  StatusV2Controller,
} from './v2';

export { QueryApi } from './prometheus/query-api';
export { QueryRunner } from './prometheus/query-request';
export { PrometheusStatusApi } from './prometheus/status-api';
export { processNodeOptions } from './prometheus/runtime-info';

/** The objects behind the alert API, built by the server outside Nest. */
export interface AlertApiParts {
  alertIntake: AlertIntake;
  alertsApi: AlertsApi;
  statusApi: StatusApi;
  silencesApi: SilencesApi;
  bodies: RequestBodyReader;
  /** The notification history and routing tree behind the API's extensions. */
  notificationsApi: NotificationsApi;
  routesApi: RoutesApi;
}

/** The objects behind Prometheus's API. */
export interface PrometheusApiParts {
  /** The rule groups behind `/api/v1/rules` and `/api/v1/alerts`. */
  ruleManager: RuleManager;
  /** Runs the query API's requests over the metric store (on query threads). */
  queries: QueryRunner;
  /** The scrape jobs behind `/api/v1/targets`. */
  scrapeManager: ScrapeManager;
  /** The scraped exemplars behind `/api/v1/query_exemplars`. */
  exemplars: ExemplarQuerier;
  /** The receiver behind `POST /api/v1/write` (`--web.enable-remote-write-receiver`); none: 404. */
  remoteWriteReceiver?: RemoteWriteReceiver;
  /** Behind `/api/v1/status/{config,flags,runtimeinfo,tsdb}`. */
  prometheusStatus: PrometheusStatusApi;
}

/** Prometheus's API controllers (`/api/v1/query`, `/api/v1/rules`, `/api/v1/write`, ...). */
export const PROMETHEUS_API_CONTROLLERS: Type[] = [
  RulesApiController,
  MetadataApiController,
  QueryApiController,
  FormatQueryController,
  ExemplarsApiController,
  RemoteWriteController,
  StatusApiController,
];

/** The providers Prometheus's API controllers inject. */
export function prometheusApiProviders(parts: PrometheusApiParts): Provider[] {
  return [
    { provide: RuleManager, useValue: parts.ruleManager },
    { provide: QueryRunner, useValue: parts.queries },
    { provide: ScrapeManager, useValue: parts.scrapeManager },
    { provide: ExemplarQuerier, useValue: parts.exemplars },
    { provide: PrometheusStatusApi, useValue: parts.prometheusStatus },
    {
      provide: RemoteWriteEndpoint,
      useValue: { receiver: parts.remoteWriteReceiver } satisfies RemoteWriteEndpoint,
    },
  ];
}

/**
 * The alert API controllers, in registration order: v2 (alerts, status, silences), v1, and last
 * the v2 catch-all 404 (append any other `/api/v2` controller before it).
 */
export const ALERT_API_CONTROLLERS: Type[] = [
  AlertsV2Controller,
  StatusV2Controller,
  SilencesV2Controller,
  ExtensionsV2Controller,
  AlertsV1Controller,
  RemovedV1Controller,
  ApiV2NotFoundController,
];

/** The providers the alert API controllers inject, from the objects built by the server. */
export function alertApiProviders(parts: AlertApiParts): Provider[] {
  return [
    { provide: RequestBodyReader, useValue: parts.bodies },
    { provide: AlertIntake, useValue: parts.alertIntake },
    { provide: AlertsApi, useValue: parts.alertsApi },
    { provide: StatusApi, useValue: parts.statusApi },
    { provide: SilencesApi, useValue: parts.silencesApi },
    { provide: NotificationsApi, useValue: parts.notificationsApi },
    { provide: RoutesApi, useValue: parts.routesApi },
  ];
}
