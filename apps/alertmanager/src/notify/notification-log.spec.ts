import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { StreamLogger } from '../logging/stream-logger';
import { crc32, readFrames } from '../storage';
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
    const file = join(dir, 'nflog-0.log');
    const data = readFileSync(file);
    // Cut the second record in the middle, as a crash during the append would.
    writeFileSync(file, data.subarray(0, data.length - 20));
    const reopened = await open(2000);
    expect(reopened.query('g1', RECV)?.firingAlerts).toEqual(['a']);
    expect(reopened.query('g2', RECV)).toBeUndefined();
    expect(lines.join('\n')).toMatch(
      /Ignoring a torn or corrupt tail of the notification log.*reason="record cut short"/,
    );
    // The reopen cut the torn tail off, so new appends follow the last sound record.
    await reopened.log(RECV, 'g3', ['c'], [], HOUR, 3000);
    expect((await open(4000)).size).toBe(2);
  });

  it('ignores a record whose checksum does not match', async () => {
    const log = await open(0);
    await log.log(RECV, 'g1', ['a'], [], HOUR, 1000);
    const file = join(dir, 'nflog-0.log');
    const forged = Buffer.from(
      readFileSync(file).toString('latin1').replace('"a"', '"z"'),
      'latin1',
    );
    appendFileSync(file, forged);
    const reopened = await open(2000);
    expect(reopened.query('g1', RECV)?.firingAlerts).toEqual(['a']);
    expect(lines.join('\n')).toMatch(/reason="checksum mismatch"/);
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
    const size = readFileSync(join(dir, 'nflog.snapshot')).length;
    // A header and one record holding the one live entry; the new log is empty.
    expect(readFrames(readFileSync(join(dir, 'nflog.snapshot'))).records).toHaveLength(2);
    expect(readdirSync(dir).sort()).toEqual(['nflog-1.log', 'nflog.snapshot']);
    expect(readFileSync(join(dir, 'nflog-1.log')).length).toBe(0);
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

  it('moves a notification log of the single-file form into the journal, once', async () => {
    const line = (entry: object) => {
      const json = JSON.stringify(entry);
      return `${crc32(Buffer.from(json)).toString(16).padStart(8, '0')} ${json}\n`;
    };
    const entry = (groupKey: string, timestamp: number) => ({
      groupKey,
      receiver: RECV,
      timestamp,
      firingAlerts: ['a'],
      resolvedAlerts: [],
      expiresAt: timestamp + HOUR,
    });
    const legacy = join(dir, 'nflog');
    writeFileSync(legacy, line(entry('g1', 1000)) + line(entry('g1', 2000)) + '0badc0de {"torn');
    const log = await open(3000);
    expect(log.query('g1', RECV)?.timestamp).toBe(2000);
    expect(lines.join('\n')).toMatch(/Ignored corrupt notification log lines.*skipped=1/);
    expect(existsSync(legacy)).toBe(false);
    expect((await open(4000)).query('g1', RECV)?.timestamp).toBe(2000);
  });

  it('leaves a file named nflog that it cannot read at all (upstream protobuf) in place', async () => {
    const foreign = Buffer.from([0x0a, 0x2f, 0x12, 0x05, 0x01, 0x02]);
    writeFileSync(join(dir, 'nflog'), foreign);
    const log = await open(0);
    expect(log.size).toBe(0);
    expect(readFileSync(join(dir, 'nflog'))).toEqual(foreign);
    expect(lines.join('\n')).toMatch(/cannot read as it is/);
  });

  it('keeps everything in memory without a storage path', async () => {
    const log = await NotificationLog.open({ now: 0, logger: logger() });
    await log.log(RECV, 'g', ['a'], [], HOUR, 0);
    expect(log.query('g', RECV)?.firingAlerts).toEqual(['a']);
    expect(await log.snapshot()).toBe(0);
  });
});
