import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getFreePort, startProcess, waitFor } from '@redisx/testing';
import { startServerProcess, type Readiness, type ServerProcess } from './server-process';

/** Path of Debian's upstream Alertmanager binary, or undefined when it is not installed. */
export const UPSTREAM_BIN =
  spawnSync('sh', ['-c', 'command -v prometheus-alertmanager'], {
    encoding: 'utf8',
  }).stdout.trim() || undefined;

const ready: Readiness = {
  scheme: 'http',
  ready: async (url) => (await fetch(`${url}/-/ready`)).status === 200,
};

/**
 * Starts upstream Alertmanager (single instance, no clustering) on a free loopback port and
 * waits until `/-/ready` answers (or, behind TLS or basic auth, until `readiness` says so).
 */
export async function startUpstream(
  configFile: string,
  extraArgs: string[] = [],
  readiness: Readiness = ready,
): Promise<ServerProcess> {
  if (!UPSTREAM_BIN) throw new Error('prometheus-alertmanager is not installed');
  const port = await getFreePort();
  const storage = await mkdtemp(join(tmpdir(), 'am-upstream-'));
  const proc = startProcess(UPSTREAM_BIN, [
    `--config.file=${configFile}`,
    `--storage.path=${storage}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--cluster.listen-address=',
    ...extraArgs,
  ]);
  const url = `${readiness.scheme}://127.0.0.1:${port}`;
  await waitFor(`upstream alertmanager on ${url}`, async () => {
    if (proc.child.exitCode !== null) throw new Error(`exited early:\n${proc.output()}`);
    return readiness.ready(url);
  });
  return {
    url,
    port,
    storage,
    process: proc,
    stop: async () => {
      const code = await proc.stop('SIGTERM');
      await rm(storage, { recursive: true, force: true });
      return code;
    },
  };
}

/** This server and upstream Alertmanager, each on a free port, on one routing tree to nowhere. */
export async function startBesideUpstream(
  dir: string,
): Promise<{ ours: ServerProcess; theirs: ServerProcess; stop(): Promise<void> }> {
  const config = join(dir, 'am.yml');
  await writeFile(config, 'route:\n  receiver: none\nreceivers:\n  - name: none\n');
  const [ours, theirs] = await Promise.all([startServerProcess(config), startUpstream(config)]);
  return {
    ours,
    theirs,
    stop: async () => {
      await Promise.all([ours.stop(), theirs.stop()]);
    },
  };
}
