/**
 * The points of a checkpoint of the metric store (and of a write of closed chunks to disk) where
 * its {@link CheckpointHook} is called, in the order a checkpoint reaches them:
 * - `segment-open`: the log's next segment is about to be opened (the roll has not happened);
 * - `rolled`: new records go to the next segment; nothing of the snapshot is written;
 * - `chunk-flush`: closed chunks are about to be written to the chunk database (a checkpoint's
 *   flush, or one started in the background by many closed chunks);
 * - `snapshot-written`: the unfinished snapshot is written and synced, not renamed into place;
 * - `segments-removal`: the snapshot is in place; the segments before it are not yet removed.
 */
export type CheckpointStage =
  'segment-open' | 'rolled' | 'chunk-flush' | 'snapshot-written' | 'segments-removal';

/** Every stage, in the order a checkpoint reaches them. */
export const CHECKPOINT_STAGES: readonly CheckpointStage[] = [
  'segment-open',
  'rolled',
  'chunk-flush',
  'snapshot-written',
  'segments-removal',
];

/**
 * Called at each {@link CheckpointStage}: what it throws fails that step as a failing disk would
 * (so tests can inject faults), and the checkpoint waits while what it returns is pending.
 */
export type CheckpointHook = (stage: CheckpointStage) => Promise<void> | void;
