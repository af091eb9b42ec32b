import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChunkDatabase } from './chunk-database';
import { CHUNKS_DIR, chunkDatabaseProblem, verifyChunkDatabaseEarly } from './early-verification';

let dir: string;
let chunks: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'early-check-'));
  chunks = join(dir, CHUNKS_DIR);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const damaged = async () => {
  await mkdir(chunks, { recursive: true });
  await writeFile(join(chunks, 'data.mdb'), Buffer.alloc(8192, 0x5a));
};
const sound = async () => {
  await rm(chunks, { recursive: true, force: true });
  await ChunkDatabase.open(chunks).close();
};

describe('the early check of the chunk database', () => {
  it("is what the store's start is told, once: a later start checks again", async () => {
    await damaged();
    verifyChunkDatabaseEarly(dir);
    // The check (a child process, about 0.15 s) has read the damaged file by the time it is
    // replaced: the store's start is told what it found then.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await sound();
    expect(await chunkDatabaseProblem(chunks)).toEqual(expect.any(String));
    expect(await chunkDatabaseProblem(chunks)).toBeUndefined();
  });

  it('is not started where there is no database yet', async () => {
    verifyChunkDatabaseEarly(dir);
    await sound();
    expect(await chunkDatabaseProblem(chunks)).toBeUndefined();
  });
});
