import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { verifyChunkDatabase } from './verify-chunk-database';

/** The chunk database's directory under the storage path. */
export const CHUNKS_DIR = 'metrics-chunks';

/**
 * The checks started, by directory. The bin starts a check through `dist/` before it loads the
 * server's bundle, which holds its own copy of this module: the map is the process's, not the
 * module's, so that the bundle finds the check the bin started.
 */
const started = ((globalThis as Record<symbol, unknown>)[
  Symbol.for('redisx.alertmanager.chunk-database-checks')
] ??= new Map()) as Map<string, Promise<string | undefined>>;

/**
 * Starts checking the chunk database under `storagePath` (see `verifyChunkDatabase`: a child
 * process, about 0.15 s) while the server's modules load, instead of after; the store's start
 * takes its answer through `chunkDatabaseProblem`. Nothing else writes the database before the
 * store opens it, so the answer still holds then.
 */
export function verifyChunkDatabaseEarly(storagePath: string): void {
  const dir = resolve(storagePath, CHUNKS_DIR);
  if (started.has(dir) || !existsSync(join(dir, 'data.mdb'))) return;
  started.set(dir, verifyChunkDatabase(dir));
}

/** What is wrong with the chunk database in `dir`: the early check's answer, or a new check. */
export function chunkDatabaseProblem(dir: string): Promise<string | undefined> {
  const key = resolve(dir);
  const early = started.get(key);
  started.delete(key);
  return early ?? verifyChunkDatabase(dir);
}
