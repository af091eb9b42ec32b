// The storage floor: checksummed append-only logs with group commit, snapshots and torn-tail
// recovery, and the put/delete journal every durable store keeps its state in.
export { AppendLog } from './append-log';
export { Journal } from './journal';
export type { LogRecovery, LogReplay } from './load-log-state';
export { LogFiles, type LogDurability } from './log-files';
export { openJournal } from './open-journal';
export { rollSnapshot } from './roll-snapshot';
export { SnapshotWriter } from './snapshot-writer';
export { loadLogState } from './load-log-state';
export type { OpenedJournal, OpenJournalOptions } from './open-journal';
export { decodePutDelete, encodePutDelete } from './put-delete-codec';
export type { PutDeleteRecord, TupleCodec } from './put-delete-codec';
export { crc32, FRAME_HEADER_BYTES, frame, readFrames } from './record-framing';
