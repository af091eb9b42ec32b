import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getFreePort, startProcess, waitFor, type RunningProcess } from '@redisx/testing';

/** The built binaries, as `npx` runs them after `npm run build`. */
export const ALERTMANAGER_BIN = join(__dirname, '..', '..', 'bin', 'redisx-alertmanager.js');
export const AMTOOL_BIN = join(__dirname, '..', '..', 'bin', 'redisx-amtool.js');

/** A server process started on a free loopback port with its own storage directory. */
export interface ServerProcess {
  url: string;
  port: number;
  storage: string;
  process: RunningProcess;
  /** SIGTERM, wait for exit, remove the storage directory. */
  stop(): Promise<number | string>;
}

/** How to tell that a server is up: its URL scheme and a probe of its base URL. */
export interface Readiness {
  scheme: 'http' | 'https';
  ready(url: string): Promise<boolean>;
}

const ready: Readiness = {
  scheme: 'http',
  ready: async (url) => (await fetch(`${url}/-/ready`)).status === 200,
};

/**
 * Starts `redisx-alertmanager` with `configFile` and waits until `/-/ready` answers (or, for
 * a server behind TLS or basic auth, until `readiness` says so). With `storageDir` the server
 * keeps its data there (for restarts) and `stop` leaves it in place; `env` adds to the
 * environment it inherits.
 */
export async function startServerProcess(
  configFile: string,
  extraArgs: string[] = [],
  storageDir?: string,
  readiness: Readiness = ready,
  env: NodeJS.ProcessEnv = {},
): Promise<ServerProcess> {
  const port = await getFreePort();
  const storage = storageDir ?? (await mkdtemp(join(tmpdir(), 'am-storage-')));
  // Run as a program, as `npx redisx-alertmanager` runs it (its first line is a shell command).
  const proc = startProcess(
    ALERTMANAGER_BIN,
    [
      `--config.file=${configFile}`,
      `--storage.path=${storage}`,
      `--web.listen-address=127.0.0.1:${port}`,
      ...extraArgs,
    ],
    { env },
  );
  const url = `${readiness.scheme}://127.0.0.1:${port}`;
  try {
    await waitFor(`the server on ${url}`, async () => {
      if (proc.child.exitCode !== null) throw new Error(`exited early:\n${proc.output()}`);
      // Only once this process says it listens is the port its own: another server that took the
      // same free port first would answer the probe too.
      return hasListened(proc) && readiness.ready(url);
    });
  } catch (error) {
    await proc.stop('SIGKILL');
    throw error;
  }
  return {
    url,
    port,
    storage,
    process: proc,
    stop: async () => {
      const code = await proc.stop('SIGTERM');
      if (!storageDir) await rm(storage, { recursive: true, force: true });
      return code;
    },
  };
}

/** Whether the server process has logged that it listens (after binding its port). */
export function hasListened(proc: RunningProcess): boolean {
  return /msg=Listening|"msg":"Listening"/.test(proc.output());
}

/** Reads one sample's value from a Prometheus text exposition. */
export function metricValue(exposition: string, name: string): number | undefined {
  const line = exposition.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}
