import { spawn } from 'node:child_process';

/**
 * LMDB trusts its file: a database damaged outside it (a disk error, a file cut short or
 * overwritten) can crash the process that reads it rather than fail. Before the server opens its
 * chunk database, a child process opens it and reads what start-up reads (the series and the
 * batch descriptors); `undefined` when it could, else why not. Chunks are read by queries later,
 * one by one, and are not checked here (that would read the whole retention at every start).
 */
export async function verifyChunkDatabase(dir: string): Promise<string | undefined> {
  const script = `
    const { open } = require(${JSON.stringify(require.resolve('lmdb'))});
    const root = open({ path: process.argv[1], maxDbs: 8, readOnly: true, compression: false });
    for (const name of ['series', 'batches']) {
      const db = root.openDB({ name, keyEncoding: 'uint32', encoding: 'binary' });
      for (const { value } of db.getRange()) if (value.length === 0) throw new Error(name + ': an empty entry');
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
