import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getFreePort, startProcess, waitFor } from '@redisx/testing';
import type { ServerProcess } from './server-process';

/** Path of Debian's upstream Alertmanager binary, or undefined when it is not installed. */
export const UPSTREAM_BIN =
  spawnSync('sh', ['-c', 'command -v prometheus-alertmanager'], {
    encoding: 'utf8',
  }).stdout.trim() || undefined;

/** Starts upstream Alertmanager (single instance, no clustering) on a free loopback port. */
export async function startUpstream(
  configFile: string,
  extraArgs: string[] = [],
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
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`upstream alertmanager on ${url}`, async () => {
    if (proc.child.exitCode !== null) throw new Error(`exited early:\n${proc.output()}`);
    return (await fetch(`${url}/-/ready`)).status === 200;
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
