import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import { Module } from '@nestjs/common';
import type { AlertMuting } from '../../../alerts/alert-status';
import { MemoryAlertStore } from '../../../alerts/memory-alert-store';
import type { AlertmanagerConfig } from '../../../config';
import type { LabelSet } from '../../../labels';
import type { Muter } from '../../../labels/muter';
import { AlertsApi } from '../alerts-api';
import type { AlertGroupView, AlertRouting } from '../../../alerting/alert-routing';
import { ALERT_API_CONTROLLERS, alertApiProviders } from '../../index';
import { NotificationsApi } from '../notifications-api';
import { RoutesApi } from '../routes-api';
import { StatusApi } from '../status-api';
import { SilencesApi } from '../silences-api';
import { SilenceStore } from '../../../silences';
import { RequestBodyReader } from '../../request-body';
import { AlertIntake } from '../../../alerts/alert-intake';

/** A running API on loopback over an in-memory store, with a clock the test moves. */
export interface ApiHarness {
  url: string;
  store: MemoryAlertStore;
  silences: SilenceStore;
  clock: { now: () => number; set: (ms: number) => void };
  /** Replace to change routing; defaults to the receiver `default` for every alert. */
  routing: { receiversFor: (labels: LabelSet) => string[]; groups: () => AlertGroupView[] };
  muting: { silencers: Muter[]; inhibitors: Muter[] };
  close(): Promise<void>;
}

/** A muter that mutes labels with `name=value`, reporting `id`. */
export function labelMuter(name: string, value: string, id: string): Muter {
  return { mutedBy: (labels) => (labels[name] === value ? [id] : []) };
}

/** The request body limit of the harness, the server's default. */
export const API_BODY_LIMIT = 4 * 1024 * 1024;
const API_BODIES = new RequestBodyReader(API_BODY_LIMIT);

/** Starts the alert API controllers in a Nest app the way the server does. */
export async function startApi(config?: AlertmanagerConfig): Promise<ApiHarness> {
  let now = Date.UTC(2026, 10, 21, 4, 0, 0);
  const clock = { now: () => now, set: (ms: number) => void (now = ms) };
  const store = new MemoryAlertStore(clock);
  const muting = { silencers: [] as Muter[], inhibitors: [] as Muter[] };
  const routing: ApiHarness['routing'] = {
    receiversFor: () => ['default'],
    groups: () => [],
  };
  const liveRouting: AlertRouting = {
    receiversFor: (labels) => routing.receiversFor(labels),
    groups: () => routing.groups(),
    tree: () => undefined,
    routesFor: () => [],
  };
  const liveMuting: AlertMuting = {
    silencers: () => muting.silencers,
    inhibitors: () => muting.inhibitors,
  };
  const alertIntake = new AlertIntake({ store, clock, resolveTimeout: () => 5 * 60_000 });
  const statusApi = new StatusApi({
    config: () => config ?? ({ receivers: [] } as unknown as AlertmanagerConfig),
    startedAt: now,
  });
  const alertsApi = new AlertsApi({
    store,
    routing: liveRouting,
    muting: liveMuting,
    clock,
    receiverLabels: () => statusApi.receiverLabels(),
  });

  const silences = new SilenceStore();
  const silencesApi = new SilencesApi({ silences, clock });

  @Module({
    controllers: ALERT_API_CONTROLLERS,
    providers: alertApiProviders({
      alertIntake,
      alertsApi,
      statusApi,
      silencesApi,
      bodies: API_BODIES,
      notificationsApi: new NotificationsApi({ list: () => [] }),
      routesApi: new RoutesApi(liveRouting),
    }),
  })
  class TestModule {}

  const app = await NestFactory.create<NestExpressApplication>(TestModule, new ExpressAdapter(), {
    bodyParser: false,
    logger: false,
  });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    store,
    silences,
    clock,
    routing,
    muting,
    close: () => app.close(),
  };
}
