import { mkdtemp, open, readFile, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppendLog } from './append-log';
import { readFrames } from './record-framing';
import { recordingLogger, type LoggedLine } from '../logging/testing/recording-logger';

describe('AppendLog.commit (group commit)', () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'append-log-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('has every record on disk when its commit resolves, sharing syncs between concurrent commits', async () => {
    const file = join(dir, 'test.log');
    const handle = await open(file, 'w');
    let syncs = 0;
    const datasync = handle.datasync.bind(handle);
    handle.datasync = () => {
      syncs++;
      return datasync();
    };
    const log = new AppendLog(handle, 0, 200, recordingLogger(), 'test log');
    let next = 0;
    const onDisk: number[] = [];
    // 8 writers commit 400 records; each checks its record is in the file once acknowledged.
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < 400) {
          const i = next++;
          await log.commit(Buffer.from(String(i)));
          const records = readFrames(await readFile(file)).records.map(Number);
          if (records.includes(i)) onDisk.push(i);
        }
      }),
    );
    await log.close();
    expect(onDisk.sort((a, b) => a - b)).toEqual(Array.from({ length: 400 }, (_, i) => i));
    expect(syncs).toBeLessThan(400 / 2);
  });
});

describe('AppendLog writes that fail or fall short', () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'append-log-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  /**
   * A log on `test.log` whose writes go through `write`, given the file's own write: a write of
   * several buffers (`writev`, which the log makes of its queued records) as one of them joined.
   */
  async function logWith(
    write: (real: FileHandle['write'], data: Buffer, offset: number, length: number) => unknown,
  ) {
    const file = join(dir, 'test.log');
    const handle = await open(file, 'a');
    const real = handle.write.bind(handle) as FileHandle['write'];
    handle.write = ((data: Buffer, offset = 0, length = data.length - offset) =>
      write(real, data, offset, length)) as FileHandle['write'];
    handle.writev = (async (buffers: Buffer[]) => {
      const data = Buffer.concat(buffers);
      return { ...(await handle.write(data, 0, data.length)), buffers };
    }) as FileHandle['writev'];
    const lines: LoggedLine[] = [];
    const log = new AppendLog(handle, 0, 3_600_000, recordingLogger(lines), 'test log');
    return { log, lines, framesOnDisk: async () => readFrames(await readFile(file)) };
  }

  it('writes the rest of a record the file system took only part of', async () => {
    const { log, framesOnDisk } = await logWith((real, data, offset, length) =>
      real(data, offset, Math.min(length, 5)),
    );
    await Promise.all(['first', 'second', 'third'].map((r) => log.commit(Buffer.from(r))));
    const frames = await framesOnDisk();
    await log.close();
    expect(frames.records.map(String)).toEqual(['first', 'second', 'third']);
    expect(frames.problem).toBeUndefined();
  });

  it('cuts off what a failed write left, so that its retry follows the last whole record', async () => {
    let failing = false;
    const { log, lines, framesOnDisk } = await logWith(async (real, data, offset, length) => {
      if (!failing) return real(data, offset, length);
      // A full disk: part of the record goes in, then nothing more does.
      if (offset === 0) return real(data, offset, 6);
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    });
    await log.commit(Buffer.from('kept'));
    failing = true;
    await expect(log.commit(Buffer.from('retried'))).rejects.toThrow('ENOSPC');
    expect(lines.map((l) => l.msg)).toEqual(['Writing the test log failed']);
    failing = false;
    await log.commit(Buffer.from('later'));
    const frames = await framesOnDisk();
    await log.close();
    expect(frames.records.map(String)).toEqual(['kept', 'retried', 'later']);
    expect(frames.problem).toBeUndefined();
  });
});

describe('AppendLog synced on an interval', () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'append-log-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('resolves a commit once written, and syncs within the interval however often commits come', async () => {
    const file = join(dir, 'test.log');
    const handle = await open(file, 'a');
    let syncs = 0;
    const datasync = handle.datasync.bind(handle);
    handle.datasync = () => {
      syncs++;
      return datasync();
    };
    const log = new AppendLog(handle, 0, 50, recordingLogger(), 'test log', 'sync-on-interval');
    await log.commit(Buffer.from('0'));
    expect(readFrames(await readFile(file)).records.map(String)).toEqual(['0']);
    expect(syncs).toBe(0);
    // A commit every 10 ms for longer than the interval: the sync armed by the first is not put off.
    for (let i = 1; i <= 20; i++) {
      await log.commit(Buffer.from(String(i)));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(syncs).toBeGreaterThan(0);
    await log.close();
    expect(readFrames(await readFile(file)).records.map(Number)).toEqual(
      Array.from({ length: 21 }, (_, i) => i),
    );
  });
});
