import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@redisx/testing';
import { STALE_NAN } from '../src/remote-write/staleness';
import { encodeWriteRequest, type WireTimeSeries } from '../src/remote-write/write-request-codec';
import { startServerProcess, type ServerProcess } from './support/server-process';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { status: string; data: any };

const HEADERS = {
  'Content-Encoding': 'snappy',
  'Content-Type': 'application/x-protobuf',
  'X-Prometheus-Remote-Write-Version': '0.1.0',
};

/**
 * The remote-write receiver of the real server (`--web.enable-remote-write-receiver`): pushed
 * samples become queryable, refused ones are answered as Prometheus answers them; and a second
 * server whose `remote_write` points at the first sends its recording rule's samples there.
 */
describe('remote write between two servers', () => {
  let dir: string;
  let receiver: ServerProcess;
  let sender: ServerProcess | undefined;
  let plain: ServerProcess;

  const post = (server: ServerProcess, body: Uint8Array | string) =>
    fetch(`${server.url}/api/v1/write`, { method: 'POST', headers: HEADERS, body });
  const write = (timeseries: WireTimeSeries[]) =>
    post(receiver, encodeWriteRequest({ timeseries }));
  const query = async (server: ServerProcess, expr: string, time: number) =>
    (await (
      await fetch(`${server.url}/api/v1/query?query=${encodeURIComponent(expr)}&time=${time}`)
    ).json()) as Answer;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-remote-write-'));
    await writeFile(join(dir, 'am.yml'), 'route:\n  receiver: none\nreceivers:\n  - name: none\n');
    [receiver, plain] = await Promise.all([
      startServerProcess(join(dir, 'am.yml'), ['--web.enable-remote-write-receiver']),
      startServerProcess(join(dir, 'am.yml')),
    ]);
  });

  afterAll(async () => {
    await Promise.all([receiver?.stop(), sender?.stop(), plain?.stop()]);
    await rm(dir, { recursive: true, force: true });
  });

  it('answers 404 while the receiver is off, as Prometheus does', async () => {
    const res = await post(plain, encodeWriteRequest({ timeseries: [] }));
    expect(res.status).toBe(404);
    expect(await res.text()).toBe(
      'remote write receiver needs to be enabled with --web.enable-remote-write-receiver\n',
    );
  });

  it('appends pushed samples, a staleness marker ending the series', async () => {
    const now = Date.now();
    const labels = [
      { name: 'job', value: 'pushed' },
      { name: '__name__', value: 'pushed_total' },
    ];
    const res = await write([
      {
        labels,
        samples: [
          { value: 1, timestamp: now - 2000 },
          { value: 3, timestamp: now - 1000 },
        ],
      },
    ]);
    expect(res.status).toBe(204);
    const answer = await query(receiver, 'pushed_total', (now - 500) / 1000);
    expect(answer.data.result).toEqual([
      { metric: { __name__: 'pushed_total', job: 'pushed' }, value: [(now - 500) / 1000, '3'] },
    ]);
    expect(
      (await write([{ labels, samples: [{ value: STALE_NAN, timestamp: now }] }])).status,
    ).toBe(204);
    expect((await query(receiver, 'pushed_total', (now + 500) / 1000)).data.result).toEqual([]);
  });

  it.each([
    ['a body that is not snappy', 'not snappy at all', 400, 'snappy: corrupt input\n'],
    [
      'a series without labels',
      encodeWriteRequest({ timeseries: [{ labels: [], samples: [{ value: 1, timestamp: 1 }] }] }),
      400,
      'invalid sample: empty labelset\n',
    ],
    [
      'a label given twice',
      encodeWriteRequest({
        timeseries: [
          {
            labels: [
              { name: '__name__', value: 'a' },
              { name: '__name__', value: 'b' },
            ],
            samples: [{ value: 1, timestamp: 1 }],
          },
        ],
      }),
      400,
      'invalid sample: label name "__name__" is not unique\n',
    ],
  ])('refuses %s', async (_name, body, status, text) => {
    const res = await post(receiver, body);
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe(text);
  });

  it('skips out-of-order samples, answering 400 so the sender does not retry them', async () => {
    const now = Date.now();
    const labels = [{ name: '__name__', value: 'ooo' }];
    expect((await write([{ labels, samples: [{ value: 1, timestamp: now }] }])).status).toBe(204);
    const res = await write([
      { labels, samples: [{ value: 2, timestamp: now - 5000 }] },
      {
        labels: [{ name: '__name__', value: 'ooo_other' }],
        samples: [{ value: 7, timestamp: now }],
      },
    ]);
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('out of order sample\n');
    const answer = await query(receiver, '{__name__=~"ooo.*"}', now / 1000);
    expect(answer.data.result.map((r: { value: [number, string] }) => r.value[1]).sort()).toEqual([
      '1',
      '7',
    ]);
  });

  it("sends a server's own samples to a receiver named in remote_write", async () => {
    await writeFile(
      join(dir, 'rec.rules.yml'),
      'groups:\n  - name: rec\n    interval: 1s\n    rules:\n      - record: sent_by_rule\n        expr: vector(42)\n',
    );
    await writeFile(
      join(dir, 'prometheus.yml'),
      `global:\n  external_labels: {replica: a}\nrule_files: [rec.rules.yml]\nremote_write:\n  - url: ${receiver.url}/api/v1/write\n    name: peer\n    queue_config: {batch_send_deadline: 200ms}\n`,
    );
    sender = await startServerProcess(join(dir, 'am.yml'), [
      `--rules.config.file=${join(dir, 'prometheus.yml')}`,
    ]);
    await waitFor('samples at the receiver', async () => {
      const answer = await query(receiver, 'sent_by_rule', Date.now() / 1000);
      return answer.data.result.length === 1;
    });
    const answer = await query(receiver, 'sent_by_rule', Date.now() / 1000);
    expect(answer.data.result[0].metric).toEqual({ __name__: 'sent_by_rule', replica: 'a' });
    const metrics = await (await fetch(`${sender.url}/metrics`)).text();
    expect(metrics).toMatch(
      new RegExp(
        `prometheus_remote_storage_samples_total\\{remote_name="peer",url="${receiver.url}/api/v1/write"\\} [1-9]`,
      ),
    );
  });
});
