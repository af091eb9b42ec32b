import { getFreePort } from '@redisx/testing';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RuleEvaluationError } from './alerting-rule-state';
import { RemoteDatasource } from './remote-datasource';

/** A stand-in Prometheus API on loopback: records each request, answers what the test says. */
let server: Server;
let url = '';
let answer: { status: number; body: unknown; delayMs?: number };
const requests: { method: string; path: string; type: string; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        type: req.headers['content-type'] ?? '',
        body,
      });
      setTimeout(
        () =>
          res
            .writeHead(answer.status, { 'content-type': 'application/json' })
            .end(JSON.stringify(answer.body)),
        answer.delayMs ?? 0,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/prometheus/`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('RemoteDatasource', () => {
  it("posts the expression and time to the API's query endpoint and reads the vector", async () => {
    answer = {
      status: 200,
      body: {
        status: 'success',
        data: {
          resultType: 'vector',
          result: [
            { metric: { cache: 'orders' }, value: [1700000000, '60000'] },
            { metric: { cache: 'sessions' }, value: [1700000000, 'NaN'] },
          ],
        },
      },
    };
    const result = await new RemoteDatasource(url, 1000).query(
      'myapp_redis_cache_size > 50000',
      1_700_000_000_000,
    );
    expect(requests.at(-1)).toEqual({
      method: 'POST',
      path: '/prometheus/api/v1/query',
      type: 'application/x-www-form-urlencoded',
      body: 'query=myapp_redis_cache_size+%3E+50000&time=1700000000',
    });
    expect(result.type).toBe('vector');
    if (result.type !== 'vector') return;
    expect(result.samples.map((s) => [s.metric.toRecord(), s.t, s.f])).toEqual([
      [{ cache: 'orders' }, 1_700_000_000_000, 60000],
      [{ cache: 'sessions' }, 1_700_000_000_000, NaN],
    ]);
  });

  it('reads a scalar', async () => {
    answer = {
      status: 200,
      body: { status: 'success', data: { resultType: 'scalar', result: [1700000000.5, '+Inf'] } },
    };
    expect(await new RemoteDatasource(url, 1000).query('1/0', 0)).toMatchObject({
      type: 'scalar',
      t: 1_700_000_000_500,
      f: Infinity,
    });
  });

  it.each([
    [
      'an error answer',
      {
        status: 400,
        body: {
          status: 'error',
          errorType: 'bad_data',
          error: '1:5: parse error: unclosed left parenthesis',
        },
      },
      'remote datasource http://127.0.0.1:PORT/prometheus/api/v1/query: 400 bad_data: 1:5: parse error: unclosed left parenthesis',
    ],
    [
      'a slow answer',
      { status: 200, body: { status: 'success' }, delayMs: 300 },
      'remote datasource http://127.0.0.1:PORT/prometheus/api/v1/query: no answer within 0.1s',
    ],
    [
      'a matrix',
      { status: 200, body: { status: 'success', data: { resultType: 'matrix', result: [] } } },
      'remote datasource http://127.0.0.1:PORT/prometheus/api/v1/query: unexpected result type matrix',
    ],
  ])('turns %s into the rule error', async (_case, reply, message) => {
    answer = reply;
    const port = new URL(url).port;
    const failure = await new RemoteDatasource(url, 100).query('sum(', 0).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(RuleEvaluationError);
    expect((failure as Error).message).toBe(message.replace('PORT', port));
  });

  it('names a datasource that does not answer, and gives each expression its own result', async () => {
    const port = await getFreePort();
    const down = new RemoteDatasource(`http://127.0.0.1:${port}`, 1000);
    const [result] = await down.queryAll(['up'], 0);
    expect((result as Error).message).toBe(
      `remote datasource http://127.0.0.1:${port}/api/v1/query: ECONNREFUSED`,
    );
  });
});
