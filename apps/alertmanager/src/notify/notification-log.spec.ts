import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { StreamLogger } from '../logging/stream-logger';
import { NflogMetrics } from './nflog-metrics';
import { NotificationLog } from './notification-log';

const RECV = { groupName: 'team', integration: 'webhook', idx: 0 };
const HOUR = 3_600_000;

describe('NotificationLog', () => {
  let dir: string;
  let lines: string[];
  const logger = () => new StreamLogger('debug', 'logfmt', (l) => lines.push(l));
  const open = (now: number, retention?: number) =>
    NotificationLog.open({ storagePath: dir, now, logger: logger(), retention });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'nflog-'));
    lines = [];
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('survives a restart without a snapshot (every write is appended durably)', async () => {
    const log = await open(0);
    await log.log(RECV, 'g1', ['a', 'b'], [], 2 * HOUR, 1000);
    await log.log(RECV, 'g1', ['a'], ['b'], 2 * HOUR, 2000);
    await log.log({ ...RECV, idx: 1 }, 'g1', ['a'], [], 2 * HOUR, 2000);
    // No close(): as after a crash.
    const reopened = await open(3000);
    expect(reopened.query('g1', RECV)).toEqual({
      groupKey: 'g1',
      receiver: RECV,
      timestamp: 2000,
      firingAlerts: ['a'],
      resolvedAlerts: ['b'],
      expiresAt: 2000 + 2 * HOUR,
    });
    expect(reopened.size).toBe(2);
    expect(reopened.query('g2', RECV)).toBeUndefined();
  });

  it('detects and ignores a torn last write, keeping the entries before it', async () => {
    const log = await open(0);
    await log.log(RECV, 'g1', ['a'], [], HOUR, 1000);
    await log.log(RECV, 'g2', ['b'], [], HOUR, 1000);
    const file = join(dir, 'nflog');
    const text = readFileSync(file, 'utf8');
    // Cut the second record in the middle, as a crash during the append would.
    writeFileSync(file, text.slice(0, text.length - 20));
    const reopened = await open(2000);
    expect(reopened.query('g1', RECV)?.firingAlerts).toEqual(['a']);
    expect(reopened.query('g2', RECV)).toBeUndefined();
    expect(lines.join('\n')).toMatch(/Ignored corrupt notification log lines.*skipped=1/);
    // The reopen compacted the file, so new appends start on a clean line.
    await reopened.log(RECV, 'g3', ['c'], [], HOUR, 3000);
    expect((await open(4000)).size).toBe(2);
  });

  it('ignores a line whose checksum does not match', async () => {
    const log = await open(0);
    await log.log(RECV, 'g1', ['a'], [], HOUR, 1000);
    const file = join(dir, 'nflog');
    appendFileSync(file, readFileSync(file, 'utf8').replace('"a"', '"z"'));
    const reopened = await open(2000);
    expect(reopened.query('g1', RECV)?.firingAlerts).toEqual(['a']);
  });

  it('expires entries after min(retention, expiry), on gc and on load', async () => {
    const log = await open(0, 10 * HOUR);
    await log.log(RECV, 'short', ['a'], [], 2 * HOUR, 0);
    await log.log(RECV, 'capped', ['a'], [], 100 * HOUR, 0);
    await log.log(RECV, 'zero', ['a'], [], 0, 0);
    expect(log.query('capped', RECV)?.expiresAt).toBe(10 * HOUR);
    expect(log.query('zero', RECV)?.expiresAt).toBe(10 * HOUR);
    expect(log.gc(2 * HOUR)).toBe(1);
    expect((await open(10 * HOUR)).size).toBe(0);
  });

  it('maintenance snapshots to a compact file and reports its size', async () => {
    const registry = new Registry();
    const metrics = new NflogMetrics(registry);
    const log = await NotificationLog.open({ storagePath: dir, now: 0, logger: logger(), metrics });
    for (let i = 0; i < 5; i++) await log.log(RECV, 'g', [`a${i}`], [], HOUR, i);
    await log.maintenance(10);
    const size = readFileSync(join(dir, 'nflog')).length;
    expect(readFileSync(join(dir, 'nflog'), 'utf8').trim().split('\n')).toHaveLength(1);
    expect(
      (await registry.getSingleMetric('alertmanager_nflog_snapshot_size_bytes')?.get())?.values[0]
        .value,
    ).toBe(size);
    log.query('g', RECV);
    expect(
      (await registry.getSingleMetric('alertmanager_nflog_queries_total')?.get())?.values[0].value,
    ).toBe(1);
    await log.close(20);
  });

  it('keeps everything in memory without a storage path', async () => {
    const log = await NotificationLog.open({ now: 0, logger: logger() });
    await log.log(RECV, 'g', ['a'], [], HOUR, 0);
    expect(log.query('g', RECV)?.firingAlerts).toEqual(['a']);
    expect(await log.snapshot()).toBe(0);
  });
});
