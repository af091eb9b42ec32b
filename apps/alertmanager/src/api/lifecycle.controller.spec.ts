import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { ConfigReloader } from '../reload/config-reloader';
import { LifecycleController } from './lifecycle.controller';
import { ServerReadiness } from './server-readiness';

describe('LifecycleController', () => {
  it('answers /-/ready 503 until the server is ready, then 200, and /-/healthy all along', async () => {
    let ready = false;
    @Module({
      controllers: [LifecycleController],
      providers: [
        { provide: ConfigReloader, useValue: {} },
        { provide: ServerReadiness, useValue: { ready: () => ready } },
      ],
    })
    class TestModule {}
    const app = await NestFactory.create(TestModule, new ExpressAdapter(), { logger: false });
    await app.listen(0, '127.0.0.1');
    const url = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    const get = async (path: string) => {
      const res = await fetch(`${url}${path}`);
      return [res.status, await res.text()];
    };
    try {
      expect(await get('/-/ready')).toEqual([503, 'Service Unavailable']);
      expect(await get('/-/healthy')).toEqual([200, 'OK']);
      ready = true;
      expect(await get('/-/ready')).toEqual([200, 'OK']);
    } finally {
      await app.close();
    }
  });
});
