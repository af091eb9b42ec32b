import type { Logger } from '../logging/logger';
import { SILENCE_CODEC, type Silence, type SilenceStore } from '../silences';
import type { RedisStreamLink } from './redis-stream-link';

/** The stream the replicas' silence changes go through. */
export const SILENCES_STREAM = 'silences';

/**
 * Silences shared by the replicas of a cluster: every change made on this replica (create,
 * update, expire), once durable here, is published to the `silences` stream; every change
 * published by any replica, including those made while this one was down, is merged into the
 * local store with upstream's rule (the later `updatedAt` wins) and made durable here too. Each
 * silence's latest state is also kept in a hash, read first at start, so a replica that was down
 * longer than the stream reaches back still gets every silence. All replicas so converge to the
 * same silences.
 */
export function shareSilences(
  store: SilenceStore,
  link: RedisStreamLink,
  logger: Logger,
  retentionMs: number,
): void {
  store.onChange((changed) => {
    for (const silence of changed) {
      const data = encode(silence);
      Promise.all([
        link.publish(SILENCES_STREAM, data),
        link.keepState(SILENCES_STREAM, silence.id, data, silence.updatedAt),
      ]).catch((error: Error) =>
        // The change is durable here; replicas that miss it now get it with its next update.
        logger.error('publishing a silence to the cluster failed', {
          id: silence.id,
          err: error.message,
        }),
      );
    }
  });
  // First every silence's latest state (the stream may have been trimmed past what this replica
  // missed), then the stream from its start and as it grows.
  void link
    .states(SILENCES_STREAM)
    .then(async (states) => {
      const ended: string[] = [];
      for (const state of states) {
        const silence = decode(state.slice(state.indexOf('|') + 1));
        if (silence.endsAt + retentionMs < Date.now()) ended.push(silence.id);
        else await store.merge(silence);
      }
      await link.dropStates(SILENCES_STREAM, ended);
    })
    .catch((error: Error) =>
      logger.warn('reading the silences kept in Redis failed', { err: error.message }),
    );
  link.follow(SILENCES_STREAM, async (entries) => {
    for (const entry of entries) {
      if (entry.from === link.replica) continue;
      let silence: Silence;
      try {
        silence = decode(entry.data);
      } catch (error) {
        logger.warn('ignoring an unreadable silence from the cluster', {
          entry: entry.id,
          err: (error as Error).message,
        });
        continue;
      }
      await store.merge(silence);
    }
  });
}

function encode(silence: Silence): string {
  return JSON.stringify(SILENCE_CODEC.toTuple(silence));
}

function decode(data: string): Silence {
  return SILENCE_CODEC.fromTuple(JSON.parse(data));
}
