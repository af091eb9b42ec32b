import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppendLog } from './append-log';
import { readFrames } from './record-framing';
import { recordingLogger } from '../logging/testing/recording-logger';

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
