import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { MemoryStore } from '../../tsdb/memory-store';
import { RequestBodyReader } from '../request-body';
import { FormatQueryController } from './format-query.controller';
import { InlineQueryRunner, QueryRunner } from './query-request';

const BODY_LIMIT = 1000;

const LONG_QUERY =
  'sum by (job) (rate(http_requests_total{job="api-server",handler="/api/v1/query_range",code="200"}[5m])) > 0';
const LONG_PRETTY = [
  '  sum by (job) (',
  '    rate(http_requests_total{code="200",handler="/api/v1/query_range",job="api-server"}[5m])',
  '  )',
  '>',
  '  0',
].join('\n');

const form = (query: string) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({ query }).toString(),
});

describe('FormatQueryController', () => {
  let app: INestApplication;
  let url = '';

  beforeAll(async () => {
    @Module({
      controllers: [FormatQueryController],
      providers: [
        { provide: RequestBodyReader, useValue: new RequestBodyReader(BODY_LIMIT) },
        // The server runs it on a query thread (`ApiQueryThreads`); this is the same code inline.
        {
          provide: QueryRunner,
          useValue: new InlineQueryRunner(
            new MemoryStore(),
            { now: () => 0 },
            { timeoutMs: 60_000 },
          ),
        },
      ],
    })
    class TestModule {}
    app = await NestFactory.create(TestModule, new ExpressAdapter(), {
      bodyParser: false,
      logger: false,
    });
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as AddressInfo;
    url = `http://127.0.0.1:${port}/api/v1/format_query`;
  });
  afterAll(() => app.close());

  async function call(query: string, init?: RequestInit) {
    const res = await fetch(`${url}${query}`, init);
    return { status: res.status, type: res.headers.get('content-type'), body: await res.json() };
  }

  it.each([
    ['a GET', `?query=${encodeURIComponent(LONG_QUERY)}`, undefined],
    ['a POSTed form', '', form(LONG_QUERY)],
    ['a POSTed form before the query string', '?query=up', form(LONG_QUERY)],
    [
      'the query string of a POST that is no form',
      `?query=${encodeURIComponent(LONG_QUERY)}`,
      { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: 'query=up' },
    ],
  ])('pretty-prints the query of %s', async (_name, query, init) => {
    expect(await call(query, init)).toEqual({
      status: 200,
      type: 'application/json',
      body: { status: 'success', data: LONG_PRETTY },
    });
  });

  it.each([
    ['', '1:1: parse error: no expression found in input'],
    ['sum(', '1:5: parse error: unclosed left parenthesis'],
    [
      'rate(x)',
      '1:6: parse error: expected type range vector in call to function "rate", got instant vector',
    ],
  ])('refuses %j in Prometheus words', async (query, message) => {
    expect(await call(`?query=${encodeURIComponent(query)}`)).toEqual({
      status: 400,
      type: 'application/json',
      body: {
        status: 'error',
        errorType: 'bad_data',
        error: `invalid parameter "query": ${message}`,
      },
    });
  });

  it('refuses a form longer than --web.max-request-bytes', async () => {
    expect(await call('', form(`up{job="${'x'.repeat(BODY_LIMIT)}"}`))).toEqual({
      status: 413,
      type: 'application/json',
      body: {
        status: 'error',
        errorType: 'bad_data',
        error: `request body is larger than ${BODY_LIMIT} bytes, the limit set by --web.max-request-bytes`,
      },
    });
  });

  it('allows only GET and POST (and OPTIONS, a preflight), as Prometheus lists them', async () => {
    const res = await fetch(`${url}?query=up`, { method: 'PUT' });
    expect([res.status, res.headers.get('allow'), await res.text()]).toEqual([
      405,
      'GET, OPTIONS, POST',
      'Method Not Allowed\n',
    ]);
  });
});
