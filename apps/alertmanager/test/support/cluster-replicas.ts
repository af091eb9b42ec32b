import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from './server-process';

/** Replicas of one configuration joined through one Redis, each with its own storage. */
export interface ClusterReplicas {
  /** The replicas, in start order (`a`, `b`, ...); tests may stop or add some. */
  list: ServerProcess[];
  /** Starts one more replica named `name` (its storage directory is `<dir>/<name>`). */
  start(name: string): Promise<ServerProcess>;
  /** Stops every replica and removes the directory. */
  stop(): Promise<void>;
}

/**
 * Starts `count` replicas of the configuration `config` on `--cluster.redis-url=<redisUrl>`, in
 * a temporary directory of their own.
 */
export async function startReplicas(
  config: string,
  redisUrl: string,
  count: number,
): Promise<ClusterReplicas> {
  const dir = await mkdtemp(join(tmpdir(), 'am-cluster-'));
  await writeFile(join(dir, 'am.yml'), config);
  const list: ServerProcess[] = [];
  const start = async (name: string) => {
    const replica = await startServerProcess(
      join(dir, 'am.yml'),
      [`--cluster.redis-url=${redisUrl}`],
      join(dir, name),
    );
    list.push(replica);
    return replica;
  };
  for (const name of 'abcdefgh'.slice(0, count)) await start(name);
  return {
    list,
    start,
    stop: async () => {
      for (const replica of list) await replica.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Posts the same alerts to every replica, as Prometheus sends to every Alertmanager. */
export async function postToAll(
  replicas: readonly ServerProcess[],
  alerts: unknown[],
): Promise<void> {
  for (const replica of replicas) {
    const res = await fetch(`${replica.url}/api/v2/alerts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(alerts),
    });
    if (res.status !== 200) throw new Error(`${replica.url} answered ${res.status}`);
  }
}

/** A configuration that sends every group to the webhook `url` at once, repeating hourly. */
export function webhookConfig(url: string): string {
  return `route:\n  receiver: hook\n  group_by: [alertname]\n  group_wait: 0s\n  group_interval: 1s\n  repeat_interval: 1h\nreceivers:\n  - name: hook\n    webhook_configs:\n      - url: ${url}\n`;
}
