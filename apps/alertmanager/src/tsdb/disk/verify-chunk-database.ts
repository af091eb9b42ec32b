import { spawn } from 'node:child_process';

/**
 * LMDB trusts its file: a database damaged outside it (a disk error, a file cut short or
 * overwritten) can crash the process that reads it rather than fail. Before the server opens its
 * chunk database, a child process opens it and reads what start-up reads (the series, the batch
 * summaries and the batches start-up links); `undefined` when it could, else why not. Chunks and
 * cold batches are read by queries later and are not checked here (that would read the whole
 * retention at every start).
 */
export async function verifyChunkDatabase(dir: string): Promise<string | undefined> {
  const script = `
    const { open } = require(${JSON.stringify(require.resolve('lmdb'))});
    const root = open({ path: process.argv[1], maxDbs: 8, readOnly: true, compression: false });
    const table = (name) => root.openDB({ name, keyEncoding: 'uint32', encoding: 'binary' });
    const meta = root.openDB({ name: 'meta', encoding: 'ordered-binary' });
    for (const { value } of table('series').getRange()) if (value.length === 0) throw new Error('series: an empty entry');
    const summaries = table('summaries');
    const batches = table('batches');
    for (const { value } of summaries.getRange()) if (value.length !== 32) throw new Error('summaries: a corrupt entry');
    // The batches start-up reads: all of them but the oldest cold ones (see loadChunkDatabase).
    const coldBefore = meta.get('cold-before') ?? -Infinity;
    const checkpointedSeq = meta.get('checkpointed-seq') ?? 0;
    let cold = true;
    for (const key of batches.getKeys()) {
      const summary = summaries.getBinary(key);
      cold = cold && summary !== undefined && (summary.readUInt32LE(28) & 1) === 1 &&
        summary.readDoubleLE(8) < coldBefore && key + summary.readUInt32LE(16) <= checkpointedSeq;
      if (!cold && !(batches.getBinary(key)?.length > 0)) throw new Error('batches: an empty entry');
    }
    root.close();
  `;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', script, dir], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (data: Buffer) => (stderr = (stderr + data.toString()).slice(-2000)));
    child.on('error', (error) => resolve(error.message));
    child.on('exit', (code, signal) => {
      if (code === 0) resolve(undefined);
      else if (signal) resolve(`reading it ended with ${signal}`);
      else resolve(/Error: (.*)/.exec(stderr)?.[1] ?? `reading it failed (exit code ${code})`);
    });
  });
}
