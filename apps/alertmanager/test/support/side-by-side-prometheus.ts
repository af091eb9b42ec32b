import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  getFreePort,
  httpAnswers,
  startProcess,
  waitFor,
  type RunningProcess,
} from '@redisx/testing';
import { startServerProcess, type ServerProcess } from './server-process';
import { installedCommand } from './installed-command';

/** Debian's `prometheus`, when installed: the comparison specs run against it. */
export const PROMETHEUS_BIN = installedCommand('prometheus');

/** Prometheus and this server given the same Prometheus-style file. */
export interface SideBySide {
  ours: ServerProcess;
  theirs: RunningProcess;
  theirsUrl: string;
  stop(): Promise<void>;
}

/**
 * Writes `prometheusYml` to `<dir>/prometheus.yml` and starts Debian's Prometheus on it (its
 * storage under `<dir>/tsdb`) and this server with it as `--rules.config.file` (and a routing
 * tree that sends nowhere), each on a free loopback port.
 */
export async function startSideBySide(
  dir: string,
  prometheusYml: string,
  /** More flags for Prometheus only (`--enable-feature=exemplar-storage`). */
  prometheusFlags: readonly string[] = [],
): Promise<SideBySide> {
  await writeFile(join(dir, 'prometheus.yml'), prometheusYml);
  await writeFile(join(dir, 'am.yml'), 'route:\n  receiver: none\nreceivers:\n  - name: none\n');
  const port = await getFreePort();
  const theirs = startProcess(PROMETHEUS_BIN, [
    `--config.file=${join(dir, 'prometheus.yml')}`,
    `--storage.tsdb.path=${join(dir, 'tsdb')}`,
    `--web.listen-address=127.0.0.1:${port}`,
    ...prometheusFlags,
  ]);
  const ours = await startServerProcess(join(dir, 'am.yml'), [
    `--rules.config.file=${join(dir, 'prometheus.yml')}`,
  ]);
  return {
    ours,
    theirs,
    theirsUrl: `http://127.0.0.1:${port}`,
    stop: async () => {
      await ours.stop();
      await theirs.stop();
    },
  };
}

/** {@link startSideBySide}, once Prometheus answers `/-/ready`. */
export async function startSideBySideReady(
  dir: string,
  prometheusYml: string,
): Promise<SideBySide> {
  const servers = await startSideBySide(dir, prometheusYml);
  try {
    await waitFor('Prometheus ready', () => httpAnswers(`${servers.theirsUrl}/-/ready`), 20_000);
  } catch (error) {
    await servers.stop();
    throw error;
  }
  return servers;
}
