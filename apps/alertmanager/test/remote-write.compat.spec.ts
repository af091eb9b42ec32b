import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  describeWhen,
  getFreePort,
  type RunningProcess,
  startProcess,
  waitFor,
} from '@redisx/testing';
import { STALE_NAN } from '../src/remote-write/staleness';
import { encodeWriteRequest } from '../src/remote-write/write-request-codec';
import { startServerProcess, type ServerProcess } from './support/server-process';
import { PROMETHEUS_BIN } from './support/side-by-side-prometheus';

/**
 * Remote write from the server to Debian's Prometheus (when installed) started with
 * `--web.enable-remote-write-receiver`: samples pushed into the server arrive in Prometheus, as
 * many as were pushed, a staleness marker ends the series there too, and samples appended while
 * Prometheus is down are sent once it is back on the same port and storage.
 */
const describeWithPrometheus = describeWhen(
  !!PROMETHEUS_BIN,
  'remote write comparison skipped: prometheus is not installed (apt-get install prometheus)',
);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { status: string; data: any };

const SERIES = ['a', 'b', 'c'];

describeWithPrometheus('remote write to Prometheus', () => {
  let dir: string;
  let ours: ServerProcess;
  let theirs: RunningProcess | undefined;
  let theirsUrl = '';
  let port = 0;
  const start = Date.now() - 60_000;

  const startPrometheus = () =>
    startProcess(PROMETHEUS_BIN, [
      `--config.file=${join(dir, 'empty.yml')}`,
      `--storage.tsdb.path=${join(dir, 'tsdb')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--web.enable-remote-write-receiver',
    ]);
  const ready = () =>
    waitFor('Prometheus to be ready', async () => {
      const res = await fetch(`${theirsUrl}/-/ready`).catch(() => undefined);
      return res?.status === 200;
    });
  /** Pushes samples `from`..`to` (one per 100 ms from `start`) of every series into our server. */
  const push = async (from: number, to: number) => {
    const timeseries = SERIES.map((s) => ({
      labels: [
        { name: '__name__', value: 'rw_compat' },
        { name: 'series', value: s },
      ],
      samples: Array.from({ length: to - from + 1 }, (_, i) => ({
        value: from + i,
        timestamp: start + (from + i) * 100,
      })),
    }));
    const res = await fetch(`${ours.url}/api/v1/write`, {
      method: 'POST',
      body: encodeWriteRequest({ timeseries }),
    });
    expect(res.status).toBe(204);
  };
  const counts = async () => {
    const expr = encodeURIComponent('count_over_time(rw_compat[10m])');
    const res = await fetch(`${theirsUrl}/api/v1/query?query=${expr}&time=${Date.now() / 1000}`);
    const answer = (await res.json()) as Answer;
    return Object.fromEntries(
      answer.data.result.map((r: { metric: { series: string }; value: [number, string] }) => [
        r.metric.series,
        Number(r.value[1]),
      ]),
    );
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-remote-write-compat-'));
    port = await getFreePort();
    theirsUrl = `http://127.0.0.1:${port}`;
    await writeFile(join(dir, 'empty.yml'), '{}\n');
    await writeFile(join(dir, 'am.yml'), 'route:\n  receiver: none\nreceivers:\n  - name: none\n');
    await writeFile(
      join(dir, 'prometheus.yml'),
      `remote_write:\n  - url: ${theirsUrl}/api/v1/write\n    name: debian\n    queue_config: {batch_send_deadline: 100ms, min_backoff: 50ms, max_backoff: 200ms}\n`,
    );
    theirs = startPrometheus();
    await ready();
    ours = await startServerProcess(join(dir, 'am.yml'), [
      `--rules.config.file=${join(dir, 'prometheus.yml')}`,
      '--web.enable-remote-write-receiver',
    ]);
  }, 30_000);

  afterAll(async () => {
    await ours?.stop();
    await theirs?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('delivers every sample pushed', async () => {
    await push(0, 99);
    await waitFor('all samples in Prometheus', async () => {
      const c = await counts();
      return SERIES.every((s) => c[s] === 100);
    });
    expect(await counts()).toEqual({ a: 100, b: 100, c: 100 });
  });

  it('catches up what was appended while Prometheus was down', async () => {
    await theirs?.stop();
    await push(100, 199);
    await waitFor('a failed send', async () => {
      const metrics = await (await fetch(`${ours.url}/metrics`)).text();
      return /prometheus_remote_storage_samples_retried_total\{[^}]*\} [1-9]/.test(metrics);
    });
    await push(200, 249);
    theirs = startPrometheus();
    await ready();
    await waitFor('the catch-up', async () => {
      const c = await counts();
      return SERIES.every((s) => c[s] === 250);
    });
    expect(await counts()).toEqual({ a: 250, b: 250, c: 250 });
  }, 30_000);

  it('ends the series in Prometheus with a staleness marker', async () => {
    const t = start + 250 * 100;
    const res = await fetch(`${ours.url}/api/v1/write`, {
      method: 'POST',
      body: encodeWriteRequest({
        timeseries: [
          {
            labels: [
              { name: '__name__', value: 'rw_compat' },
              { name: 'series', value: 'a' },
            ],
            samples: [{ value: STALE_NAN, timestamp: t }],
          },
        ],
      }),
    });
    expect(res.status).toBe(204);
    const series = async (at: number) => {
      const expr = encodeURIComponent('rw_compat');
      const answer = (await (
        await fetch(`${theirsUrl}/api/v1/query?query=${expr}&time=${at / 1000}`)
      ).json()) as Answer;
      return answer.data.result.map((r: { metric: { series: string } }) => r.metric.series).sort();
    };
    await waitFor('the marker in Prometheus', async () => (await series(t + 1)).length === 2);
    expect(await series(t + 1)).toEqual(['b', 'c']);
    expect(await series(t - 1)).toEqual(['a', 'b', 'c']);
  });
});
