import { access, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../logging/logger';
import { nextTurn } from '../../time/next-turn';
import type { MemoryStore } from '../memory-store';
import { decodeLabels } from '../wal/wal-records';
import type { ChunkDatabase } from './chunk-database';
import type { ChunkFlusher } from './chunk-flusher';
import { verifyChunkDatabase } from './verify-chunk-database';

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
  const problem = await verifyChunkDatabase(dir);
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
 * Reads the chunk database back: every series' labels, then each batch's chunk descriptors,
 * linked to their series oldest first (chunks the retention dropped are skipped and deleted with
 * the next flush). No chunk's bytes are read.
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
  const cutoff = flusher.storedCutoff;
  for (const batch of db.storedBatches()) {
    const kept = new Uint8Array(batch.length);
    for (let i = 0; i < batch.length; i++) {
      const series = store.byId(batch.seriesId(i));
      const minT = batch.minT(i);
      const maxT = batch.maxT(i);
      if (series === undefined || maxT < cutoff || minT <= series.lastTimestamp) continue;
      series.linkDiskChunk(batch.seq(i), batch.count(i), minT, maxT, batch.bytes(i));
      kept[i] = 1;
    }
    flusher.adoptBatch(batch, kept);
    n += batch.length;
    if (n >= LOAD_SLICE) {
      n = 0;
      await nextTurn();
    }
  }
}
