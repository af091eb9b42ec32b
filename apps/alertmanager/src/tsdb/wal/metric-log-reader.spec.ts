import { mkdtemp, open as openFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordingLogger, type LoggedLine } from '../../logging/testing/recording-logger';
import { Labels } from '../labels';
import { MetricStorage } from '../metric-storage';
import type { LogPosition, LogRead } from './metric-log-reader';

const HOUR = 3_600_000;
const cpu = Labels.fromRecord({ __name__: 'cpu', core: '0' });
const mem = Labels.fromRecord({ __name__: 'mem' });

let dir: string;
let lines: LoggedLine[];
let storage: MetricStorage;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'metric-log-reader-'));
  lines = [];
  storage = await MetricStorage.open({
    dir,
    retentionMs: 24 * HOUR,
    syncIntervalMs: 5,
    logger: recordingLogger(lines),
  });
});
afterEach(async () => {
  await storage.close();
  await rm(dir, { recursive: true, force: true });
});

/** Samples are a minute old at most, within the retention of every checkpoint. */
const BASE = Date.now() - 60_000;

/** Commits sample `i` of both series (cpu `i`, mem `i / 3`, not XOR-friendly) at `i` seconds. */
async function scrape(from: number, to: number): Promise<void> {
  for (let i = from; i <= to; i++) {
    await storage
      .appender()
      .add(cpu, BASE + i * 1000, i)
      .add(mem, BASE + i * 1000, i / 3)
      .commit().written;
  }
}

/** `[name, t, v]` of each sample read. */
const samples = (read: LogRead) =>
  read.t.map((t, i) => [read.labels[i].get('__name__'), t, read.v[i]] as const);
const expected = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, k) => from + k).flatMap((i) => [
    ['cpu', BASE + i * 1000, i] as const,
    ['mem', BASE + i * 1000, i / 3] as const,
  ]);

async function readAll(from: LogPosition): Promise<LogRead> {
  const reader = storage.readLog(from);
  try {
    return await reader.read(Infinity);
  } finally {
    await reader.close();
  }
}

function lastPosition(read: LogRead): LogPosition {
  const last = read.records.at(-1);
  if (last === undefined) throw new Error('no record read');
  return last.position;
}

const warnings = () => lines.filter((l) => l.level === 'warn').map((l) => l.msg);

describe('MetricLogReader', () => {
  it('reads every committed sample, segment after segment, up to what is written', async () => {
    const start = storage.logEnd();
    storage.holdLog(() => start.segment);
    await scrape(1, 5);
    await storage.checkpoint(Date.now());
    await scrape(6, 8);
    const read = await readAll(start);
    expect(samples(read)).toEqual(expected(1, 8));
    expect(read.records.at(-1)?.position).toEqual(storage.logEnd());
    expect(read.unknownSeries).toBe(0);
  });

  it('from a position inside a segment, hands out exactly the records after it, their values decoded', async () => {
    const start = storage.logEnd();
    await scrape(1, 6);
    const first = storage.readLog(start);
    // Reading stops after the record that reaches the samples asked for.
    const head = await first.read(5);
    expect(samples(head)).toEqual(expected(1, 3));
    await first.close();
    // The position after the last record of the first read, as a remote keeps it.
    const rest = await readAll(lastPosition(head));
    expect(samples(rest)).toEqual(expected(4, 6));
  });

  it('starts from the end when the position is past it (another store), and says so', async () => {
    await scrape(1, 2);
    const reader = storage.readLog({ segment: 7, offset: 0 });
    expect(samples(await reader.read(Infinity))).toEqual([]);
    await scrape(3, 3);
    expect(samples(await reader.read(Infinity))).toEqual(expected(3, 3));
    await reader.close();
    expect(warnings()).toContain(
      'The position to read the metric log from is past its end; reading from the end',
    );
  });

  it('skips the rest of a finished segment after a record that fails its checksum, and goes on with the next', async () => {
    const start = storage.logEnd();
    storage.holdLog(() => start.segment);
    await scrape(1, 4);
    const afterTwo = storage.readLog(start);
    const cut = lastPosition(await afterTwo.read(4));
    await afterTwo.close();
    await storage.checkpoint(Date.now());
    await scrape(5, 6);
    // One byte of the third scrape's record flipped on disk.
    const file = await openFile(join(dir, `metrics-${cut.segment}.log`), 'r+');
    const byte = Buffer.alloc(1);
    await file.read(byte, 0, 1, cut.offset + 12);
    await file.write(Buffer.from([byte[0] ^ 0xff]), 0, 1, cut.offset + 12);
    await file.close();
    const reader = storage.readLog(start);
    const read = await reader.read(Infinity);
    expect(samples(read)).toEqual([...expected(1, 2), ...expected(5, 6)]);
    expect(reader.counts.failures).toBe(1);
    await reader.close();
    expect(warnings()).toContain('Skipping the rest of a metric log segment that cannot be read');
  });

  it('goes on with the next segment when the one it is to read was removed, and says so', async () => {
    const start = storage.logEnd();
    await scrape(1, 2);
    await storage.checkpoint(Date.now());
    await scrape(3, 4);
    await storage.checkpoint(Date.now());
    await scrape(5, 5);
    // No reader holds the older segments: the checkpoints removed them.
    expect(samples(await readAll(start))).toEqual(expected(5, 5));
    expect(warnings()).toContain('Metric log segments were removed before they were read');
  });
});
