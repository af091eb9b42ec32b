import 'reflect-metadata';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import { MemoryAlertStore } from '../alerts/memory-alert-store';
import type { AlertmanagerConfig } from '../config';
import { ConfigReloader } from '../reload/config-reloader';
import { READY_ONCE_LISTENING, ServerReadiness } from './server-readiness';
import { SilenceStore } from '../silences';
import { HotRoutes, type EtagFn } from './hot-routes';
import { installCors } from './install-cors';
import { LifecycleController } from './lifecycle.controller';
import { ALERT_API_CONTROLLERS, alertApiProviders } from '.';
import { AlertsApi, NotificationsApi, RoutesApi, SilencesApi, StatusApi } from './v2';
import { RequestBodyReader } from './request-body';
import { AlertIntake } from '../alerts/alert-intake';

const NOW = Date.UTC(2026, 10, 21, 4, 0, 0);
const BODY_LIMIT = 64 * 1024;

/** One API over fresh stores, with or without the hot routes in front of Nest. */
async function startApp(hot: boolean, prefix: string) {
  const clock = { now: () => NOW };
  let ids = 0;
  const silences = new SilenceStore(undefined, undefined, undefined, () => `id-${++ids}`);
  const store = new MemoryAlertStore(clock);
  const alertsApi = new AlertsApi({
    store,
    routing: { receiversFor: () => ['default'], groups: () => [] },
    muting: { silencers: () => [], inhibitors: () => [] },
    clock,
    receiverLabels: () => new Map(),
  });
  const alertIntake = new AlertIntake({ store, clock, resolveTimeout: () => 5 * 60_000 });
  const silencesApi = new SilencesApi({ silences, clock });
  const bodies = new RequestBodyReader(BODY_LIMIT);
  const statusApi = new StatusApi({
    config: () => ({ receivers: [] }) as unknown as AlertmanagerConfig,
    startedAt: NOW,
  });
  @Module({
    controllers: [LifecycleController, ...ALERT_API_CONTROLLERS],
    providers: [
      ...alertApiProviders({
        alertIntake,
        alertsApi,
        statusApi,
        silencesApi,
        bodies,
        notificationsApi: new NotificationsApi({ list: () => [] }),
        routesApi: new RoutesApi({
          receiversFor: () => [],
          groups: () => [],
          tree: () => undefined,
          routesFor: () => [],
        }),
      }),
      { provide: ConfigReloader, useValue: {} },
      { provide: ServerReadiness, useValue: READY_ONCE_LISTENING },
    ],
  })
  class TestModule {}
  const app = await NestFactory.create<NestExpressApplication>(TestModule, new ExpressAdapter(), {
    bodyParser: false,
    logger: false,
  });
  app.disable('x-powered-by');
  if (prefix !== '') app.setGlobalPrefix(prefix);
  installCors(app, prefix);
  if (hot) {
    const express = app.getHttpAdapter().getInstance() as { get(setting: string): unknown };
    new HotRoutes(alertIntake, silencesApi, bodies).install(
      app.getHttpServer(),
      prefix,
      express.get('etag fn') as EtagFn,
    );
  }
  await app.listen(0, '127.0.0.1');
  return { app, port: (app.getHttpServer().address() as AddressInfo).port };
}

/** Status, headers in order (Date left out) and body, as the client receives them. */
function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
) {
  return new Promise<string>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = res.rawHeaders.filter((_, i, all) => all[i - (i % 2)] !== 'Date');
        resolve(`${res.statusCode}\n${raw.join(': ')}\n${Buffer.concat(chunks).toString()}`);
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const JSON_TYPE = { 'Content-Type': 'application/json' };
const silence = (o: Record<string, unknown> = {}) =>
  JSON.stringify({
    matchers: [{ name: 'alertname', value: 'A', isRegex: false, isEqual: true }],
    startsAt: new Date(NOW).toISOString(),
    endsAt: new Date(NOW + 3_600_000).toISOString(),
    createdBy: 'me',
    comment: 'c',
    ...o,
  });
const CASES: Array<[string, string, Record<string, string>, string | undefined]> = [
  ['GET', '/-/healthy', {}, undefined],
  ['GET', '/-/healthy', { 'If-None-Match': 'W/"2-nOO9QiTIwXgNtWtBJezz8kv3SLc"' }, undefined],
  ['HEAD', '/-/healthy', {}, undefined],
  ['POST', '/api/v2/silences', JSON_TYPE, silence()],
  ['POST', '/api/v2/silences', {}, silence()],
  ['POST', '/api/v2/silences', { 'Content-Type': 'text/plain' }, silence()],
  ['POST', '/api/v2/silences', JSON_TYPE, '{'],
  ['POST', '/api/v2/silences', JSON_TYPE, ''],
  ['POST', '/api/v2/silences', JSON_TYPE, silence({ comment: undefined })],
  ['POST', '/api/v2/silences', JSON_TYPE, silence({ matchers: [] })],
  ['POST', '/api/v2/silences', JSON_TYPE, silence({ id: 'id-404' })],
  ['POST', '/api/v2/silences', JSON_TYPE, silence({ endsAt: new Date(NOW - 1).toISOString() })],
  [
    'POST',
    '/api/v2/silences',
    JSON_TYPE,
    silence({ matchers: [{ name: 'a', value: '(', isRegex: true, isEqual: true }] }),
  ],
  ['POST', '/api/v2/alerts', JSON_TYPE, '[]'],
  ['POST', '/api/v2/alerts', { 'Content-Type': 'text/plain' }, '[]'],
  ['POST', '/api/v2/alerts', JSON_TYPE, 'xx'],
  ['POST', '/api/v2/alerts', JSON_TYPE, ''],
  ['POST', '/api/v2/alerts', JSON_TYPE, JSON.stringify([{ labels: { a: 'b' } }])],
  ['POST', '/api/v2/alerts', JSON_TYPE, JSON.stringify([{ labels: {} }, { labels: { '0': 'x' } }])],
  ['POST', '/api/v2/alerts?x=1', JSON_TYPE, '[]'],
  ['POST', '/api/v2/alerts', {}, '[]'],
  ['POST', '/api/v2/alerts', { 'Content-Type': 'application/json;;' }, '[]'],
  ['POST', '/api/v2/alerts', JSON_TYPE, `[${' '.repeat(BODY_LIMIT)}]`],
  ['POST', '/api/v2/silences', JSON_TYPE, `{${' '.repeat(BODY_LIMIT)}}`],
  ['PUT', '/api/v2/alerts', JSON_TYPE, '[]'],
];

describe.each(['', '/am'])('HotRoutes under the route prefix %j', (prefix) => {
  let plain: Awaited<ReturnType<typeof startApp>>;
  let hot: Awaited<ReturnType<typeof startApp>>;
  beforeAll(async () => {
    plain = await startApp(false, prefix);
    hot = await startApp(true, prefix);
  });
  afterAll(async () => {
    await plain.app.close();
    await hot.app.close();
  });

  it.each(CASES)(
    'answers %s %s %j, case %#, as the controllers do',
    async (method, path, headers, body) => {
      const expected = await send(plain.port, method, prefix + path, headers, body);
      expect(await send(hot.port, method, prefix + path, headers, body)).toBe(expected);
    },
  );
});
