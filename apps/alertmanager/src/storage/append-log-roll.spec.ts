import { mkdtemp, open, readFile, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordingLogger, type LoggedLine } from '../logging/testing/recording-logger';
import { AppendLog } from './append-log';
import { readFrames } from './record-framing';

describe('AppendLog.roll', () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'append-log-roll-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const records = async (name: string) =>
    readFrames(await readFile(join(dir, name))).records.map(String);

  /** A log on `a.log`, synced on an interval, whose writes (`write`, `writev`) go through `write` when it is given. */
  async function logOnA(write?: () => Promise<void>) {
    const handle = await open(join(dir, 'a.log'), 'a');
    if (write) {
      const real = handle.write.bind(handle) as FileHandle['write'];
      handle.write = (async (...args: Parameters<FileHandle['write']>) => {
        await write();
        return real(...args);
      }) as FileHandle['write'];
      // The log writes its queued records with one `writev`.
      const realv = handle.writev.bind(handle);
      handle.writev = (async (...args: Parameters<FileHandle['writev']>) => {
        await write();
        return realv(...args);
      }) as FileHandle['writev'];
    }
    const lines: LoggedLine[] = [];
    const log = new AppendLog(
      handle,
      0,
      3_600_000,
      recordingLogger(lines),
      'test log',
      'sync-on-interval',
    );
    return { log, lines, handle };
  }

  it('puts what was queued before the swap in the current file, and what follows it in the next', async () => {
    const { log } = await logOnA();
    await log.commit(Buffer.from('written'));
    log.append(Buffer.from('queued'));
    const next = await open(join(dir, 'b.log'), 'a');
    const rolling = log.roll(next, () => log.append(Buffer.from('first of b')));
    // Queued while the roll writes what was queued before it: it still belongs to the current file.
    log.append(Buffer.from('during the write'));
    await rolling;
    await log.commit(Buffer.from('after'));
    await log.close();
    expect(await records('a.log')).toEqual(['written', 'queued', 'during the write']);
    expect(await records('b.log')).toEqual(['first of b', 'after']);
  });

  it('acknowledges commits made during the roll once they are written, in either file', async () => {
    const { log } = await logOnA();
    const next = await open(join(dir, 'b.log'), 'a');
    const commits = Array.from({ length: 20 }, (_, i) => log.commit(Buffer.from(String(i))));
    const rolling = log.roll(next, () => undefined);
    commits.push(...Array.from({ length: 20 }, (_, i) => log.commit(Buffer.from(String(20 + i)))));
    await Promise.all([rolling, ...commits]);
    const both = [...(await records('a.log')), ...(await records('b.log'))].map(Number);
    await log.close();
    expect(both).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });

  it('changes nothing when the current file cannot be written: the next file is closed, the records wait', async () => {
    let failing = true;
    const { log, lines } = await logOnA(async () => {
      if (failing) throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' });
    });
    log.append(Buffer.from('waiting'));
    const next = await open(join(dir, 'b.log'), 'a');
    let swapped = false;
    await expect(log.roll(next, () => (swapped = true))).rejects.toThrow('EIO');
    expect(swapped).toBe(false);
    await expect(next.stat()).rejects.toThrow();
    expect(lines.map((l) => l.msg)).toEqual(['Writing the test log failed']);
    failing = false;
    await log.commit(Buffer.from('later'));
    await log.close();
    expect(await records('a.log')).toEqual(['waiting', 'later']);
    expect(await records('b.log')).toEqual([]);
  });

  it('syncs and closes the previous file, and syncs it before the next one', async () => {
    const { log, handle } = await logOnA();
    const synced: string[] = [];
    const next = await open(join(dir, 'b.log'), 'a');
    for (const [name, file] of [
      ['a', handle],
      ['b', next],
    ] as const) {
      const datasync = file.datasync.bind(file);
      file.datasync = async () => {
        // The previous file's sync is slow: the next file's must still come after it.
        if (name === 'a') await new Promise((resolve) => setTimeout(resolve, 50));
        await datasync();
        synced.push(name);
      };
    }
    await log.commit(Buffer.from('in a'));
    await log.roll(next, () => undefined);
    await log.commit(Buffer.from('in b'));
    await log.flush();
    expect(synced).toEqual(['a', 'b']);
    await expect(handle.stat()).rejects.toThrow();
    await log.close();
  });
});
