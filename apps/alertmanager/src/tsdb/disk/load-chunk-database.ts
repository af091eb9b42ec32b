import { access, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../logging/logger';
import { nextTurn } from '../../time/next-turn';
import type { MemoryStore } from '../memory-store';
import { decodeLabels } from '../wal/wal-records';
import type { BatchSummary } from './batch-codec';
import type { ChunkDatabase } from './chunk-database';
import type { ChunkFlusher } from './chunk-flusher';
import { chunkDatabaseProblem } from './early-verification';

/** Series or batches read back at start-up between two turns of the event loop. */
const LOAD_SLICE = 2000;

/**
 * Moves a chunk database that cannot be read whole aside (`metrics-chunks.damaged-<ms>`), so the
 * store starts without it (from its checkpoint and log) instead of not starting.
 */
export async function setAsideIfDamaged(dir: string, logger: Logger): Promise<void> {
  try {
    await access(join(dir, 'data.mdb'));
  } catch {
    return;
  }
  const problem = await chunkDatabaseProblem(dir);
  if (problem === undefined) return;
  const aside = `${dir}.damaged-${Date.now()}`;
  await rename(dir, aside);
  logger.error(
    'The chunk database is damaged; it was moved aside and the metric store starts from its checkpoint and log',
    {
      err: problem,
      moved_to: aside,
    },
  );
}

/**
 * Reads the chunk database back: every series' labels, then the batches of recent chunks, linked
 * to their series oldest first (chunks the retention dropped are skipped). The oldest batches,
 * whose chunks are all cold, are not read: reads find them through `ColdChunkIndex`. No chunk's
 * bytes are read. Batches written before batches had summaries get one first.
 */
export async function loadChunkDatabase(
  store: MemoryStore,
  db: ChunkDatabase,
  flusher: ChunkFlusher,
): Promise<void> {
  let n = 0;
  for (const [id, labels] of db.series()) {
    store.create(decodeLabels(labels), id);
    if (++n % LOAD_SLICE === 0) await nextTurn();
  }
  await summarizeOldBatches(db);
  const { cutoff, coldBefore, checkpointedSeq } = db.state();
  const summaries = db.summaries();
  // Cold: the oldest batches, sorted by series, ending before the cold boundary, and on disk
  // before the log's last checkpoint (so neither the checkpoint nor the log holds their samples).
  let cold = 0;
  while (cold < summaries.length) {
    const batch = summaries[cold];
    const isCold =
      batch.sorted && batch.maxT < coldBefore && batch.first + batch.length <= checkpointedSeq;
    if (!isCold) break;
    cold++;
  }
  if (cold > 0) {
    store.memory.table.setColdBefore(coldBefore);
    for (const series of store.all()) series.mayBeColdUntil(coldBefore);
  }
  for (const [i, summary] of summaries.entries()) {
    flusher.adoptBatch(summary);
    if (i < cold || summary.maxT < cutoff) continue;
    const batch = db.batch(summary.first);
    if (batch === undefined) throw new Error(`batch ${summary.first} is missing`);
    for (let k = 0; k < batch.length; k++) {
      const series = store.byId(batch.seriesId(k));
      const minT = batch.minT(k);
      const maxT = batch.maxT(k);
      if (series === undefined || maxT < cutoff || minT <= series.lastTimestamp) continue;
      series.linkDiskChunk(batch.seq(k), batch.count(k), minT, maxT, batch.bytes(k));
    }
    n += batch.length;
    if (n >= LOAD_SLICE) {
      n = 0;
      await nextTurn();
    }
  }
}

/** Gives a summary to each batch written before batches had one. */
async function summarizeOldBatches(db: ChunkDatabase): Promise<void> {
  const summaries: BatchSummary[] = [];
  for (const first of db.unsummarized()) {
    const batch = db.batch(first);
    if (batch !== undefined) summaries.push(batch.summarize());
    if (summaries.length % 50 === 0) await nextTurn();
  }
  await db.addSummaries(summaries);
}
