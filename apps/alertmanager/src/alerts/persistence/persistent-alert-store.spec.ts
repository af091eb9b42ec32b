import { cp, mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Alert } from '../alert.model';
import { fingerprint } from '../fingerprint';
import { openAlertStore } from './open-alert-store';
import { recordingLogger, type LoggedLine } from '../../logging/testing/recording-logger';

const clock = { now: () => 1_000_000 };
let dir: string;
let lines: LoggedLine[];

function alert(i: number, fields: Partial<Alert> = {}): Alert {
  const labels = { alertname: `A${i}`, instance: `host-${i}` };
  return {
    labels,
    annotations: { summary: `alert ${i}` },
    startsAt: 1_000_000,
    endsAt: 1_300_000,
    updatedAt: 1_000_000,
    generatorURL: i % 2 ? 'http://gen/x' : '',
    timeout: i % 3 === 0,
    fingerprint: fingerprint(labels),
    ...fields,
  };
}

const range = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, k) => alert(from + k));
const open = (options = {}) =>
  openAlertStore({ dir, clock, logger: recordingLogger(lines), ...options });
const sorted = (alerts: Iterable<Alert>) =>
  [...alerts].sort((a, b) => (a.fingerprint < b.fingerprint ? -1 : 1));

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'alert-store-'));
  lines = [];
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('PersistentAlertStore', () => {
  it('brings every alert back after close and reopen, field for field', async () => {
    const store = await open();
    await store.put(range(0, 50));
    await store.close();
    const again = await open();
    expect(sorted(again.list())).toEqual(sorted(range(0, 50)));
    expect(again.recovery).toMatchObject({ ignoredBytes: 0, logRecords: 1 });
    await again.close();
  });

  it('resolves a put only once its alerts are on disk, sharing one commit among concurrent puts', async () => {
    const store = await open({ syncIntervalMs: 1000 });
    await Promise.all([store.put(range(0, 10)), store.put(range(10, 25))]);
    // A copy of the directory taken now is what a crash right after the answer would leave.
    const crashed = await mkdtemp(join(tmpdir(), 'alert-store-crash-'));
    await cp(dir, crashed, { recursive: true });
    const again = await openAlertStore({ dir: crashed, clock, logger: recordingLogger([]) });
    expect(sorted(again.list())).toEqual(sorted(range(0, 25)));
    expect(again.recovery).toMatchObject({ ignoredBytes: 0, logRecords: 1 });
    await again.close();
    await store.close();
    await rm(crashed, { recursive: true, force: true });
  });

  it('keeps deletions made by gc', async () => {
    const store = await open();
    await store.put([alert(1), alert(2, { endsAt: 900_000 })]);
    expect(store.gc(1_000_000).map((a) => a.labels['alertname'])).toEqual(['A2']);
    await store.close();
    const again = await open();
    expect([...again.list()].map((a) => a.labels['alertname'])).toEqual(['A1']);
    await again.close();
  });

  it('compacts into a snapshot and keeps writing to the new generation', async () => {
    const store = await open({ compactAfterBytes: 1 });
    for (let i = 0; i < 5; i++) await store.put(range(0, 20));
    await store.compact();
    await store.put(range(20, 30));
    await store.close();
    // Every put may start a compaction of its own, so the generation is at least the explicit one.
    const files = (await readdir(dir)).sort();
    expect(files).toEqual([expect.stringMatching(/^alerts-\d+\.log$/), 'alerts.snapshot']);
    const generation = Number(/\d+/.exec(files[0])?.[0]);
    expect(generation).toBeGreaterThanOrEqual(1);
    const again = await open();
    expect(again.size).toBe(30);
    expect(again.recovery.generation).toBe(generation);
    await again.close();
  });

  it('ignores and reports a log cut in the middle of a record, then appends after the sound part', async () => {
    const store = await open();
    await store.put(range(0, 10));
    await store.flush();
    await store.put(range(10, 20));
    await store.close();
    const log = join(dir, 'alerts-0.log');
    const size = (await stat(log)).size;
    await truncate(log, size - 10);

    const again = await open();
    expect(again.size).toBe(10);
    expect(again.recovery).toMatchObject({ problem: 'record cut short', logRecords: 1 });
    expect(lines.find((l) => l.level === 'warn')).toMatchObject({
      msg: 'Ignoring a torn or corrupt tail of the alert store',
      fields: { file: log, reason: 'record cut short' },
    });
    await again.put([alert(99)]);
    await again.close();

    lines = [];
    const third = await open();
    expect(third.size).toBe(11);
    expect(third.recovery.problem).toBeUndefined();
    await third.close();
  });

  const flipLastByteButFour = (b: Buffer) => {
    const copy = Buffer.from(b);
    copy[copy.length - 5] ^= 0x20;
    return copy;
  };
  it.each([
    ['a flipped byte in the last record', flipLastByteButFour, 3, 'checksum mismatch'],
    [
      'three stray bytes after it',
      (b: Buffer) => Buffer.concat([b, Buffer.from([1, 2, 3])]),
      6,
      'record header cut short',
    ],
  ])('detects %s', async (_name, damage, kept, problem) => {
    const store = await open();
    await store.put(range(0, 3));
    await store.flush();
    await store.put(range(3, 6));
    await store.close();
    const log = join(dir, 'alerts-0.log');
    await writeFile(log, damage(await readFile(log)));
    const again = await open();
    expect(again.size).toBe(kept);
    expect(again.recovery.problem).toBe(problem);
    await again.close();
  });

  it('removes an unfinished snapshot and logs of other generations', async () => {
    await writeFile(join(dir, 'alerts.snapshot.tmp'), 'partial');
    await writeFile(join(dir, 'alerts-7.log'), 'stale');
    const store = await open();
    await store.close();
    expect(await readdir(dir)).toEqual(['alerts-0.log']);
  });
});
