import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FrameStream } from './frame-stream';
import { frame, readFrames } from './record-framing';

const records = (...lengths: number[]) =>
  lengths.map((n, i) => frame(Buffer.alloc(n, 97 + (i % 26))));
const corrupt = (framed: Buffer, at: number) => {
  const copy = Buffer.from(framed);
  copy[at] ^= 0xff;
  return copy;
};

/** Files as a start-up meets them; each is read whole by `readFrames` and streamed, both agree. */
const files: [string, Buffer][] = [
  ['no records', Buffer.alloc(0)],
  ['records within one block', Buffer.concat(records(1, 2, 3))],
  ['records across blocks', Buffer.concat(records(5, 13, 0, 31, 7, 16, 9))],
  ['a record longer than a block', Buffer.concat(records(3, 200, 4))],
  ['a header cut short', Buffer.concat([...records(10, 20), Buffer.alloc(5)])],
  ['a record cut short', Buffer.concat(records(10, 40)).subarray(0, 18 + 8 + 20)],
  ['a checksum mismatch', corrupt(Buffer.concat(records(10, 30, 5)), 18 + 8 + 12)],
  ['a damaged length', corrupt(Buffer.concat(records(10, 30, 5)), 18 + 2)],
];

describe('FrameStream', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'frame-stream-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each(files)('reads %s as readFrames does, a few bytes at a time', async (name, data) => {
    const file = join(dir, name.replace(/ /g, '-'));
    await writeFile(file, data);
    const expected = readFrames(data);
    for (const blockBytes of [1, 16, 64, 1 << 20]) {
      const stream = (await FrameStream.open(file, blockBytes)) as FrameStream;
      const read: string[] = [];
      for (let payload = await stream.next(); payload; payload = await stream.next())
        read.push(payload.toString('hex'));
      await stream.close();
      expect({ blockBytes, read, validBytes: stream.validBytes, problem: stream.problem }).toEqual({
        blockBytes,
        read: expected.records.map((r) => r.toString('hex')),
        validBytes: expected.validBytes,
        problem: expected.problem,
      });
      expect(stream.size).toBe(data.length);
    }
  });

  it('is undefined for a file that is not there', async () => {
    expect(await FrameStream.open(join(dir, 'missing'))).toBeUndefined();
  });
});
