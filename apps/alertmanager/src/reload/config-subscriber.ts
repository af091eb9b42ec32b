import type { LoadedConfig } from '../config';

/**
 * A part of the server that rebuilds itself from each new configuration. A reload first asks
 * every subscriber to `prepare` (build its new object graph, with no visible effect, throwing on
 * a problem) and only when all succeeded runs every returned commit, so a reload is applied
 * wholly or not at all.
 */
export interface ConfigSubscriber {
  prepare(next: LoadedConfig): Promise<ConfigCommit> | ConfigCommit;
}

/** Puts a prepared configuration into force; it must not fail for reasons of the config. */
export type ConfigCommit = () => Promise<void> | void;
