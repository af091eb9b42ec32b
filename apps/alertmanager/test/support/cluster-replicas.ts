import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { startServerProcess, type ServerProcess } from './server-process';

/** Replicas of one configuration joined through one Redis, each with its own storage. */
export interface ClusterReplicas {
  /** The replicas, in start order (`a`, `b`, ...); tests may stop or add some. */
  list: ServerProcess[];
  /** Starts one more replica named `name` (its storage directory is `<dir>/<name>`). */
  start(name: string): Promise<ServerProcess>;
  /**
   * Starts `replica`, once it has stopped or been killed, again on its own storage directory (on
   * a new port); the new process takes its place in `list`.
   */
  restart(replica: ServerProcess): Promise<ServerProcess>;
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
  const restart = async (replica: ServerProcess) => {
    const again = await start(basename(replica.storage));
    list.splice(list.indexOf(again), 1);
    list.splice(list.indexOf(replica), 1, again);
    return again;
  };
  return {
    list,
    start,
    restart,
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

/** The timers and webhook settings of {@link webhookConfig}, as configuration values. */
export interface WebhookConfigOptions {
  groupWait?: string;
  groupInterval?: string;
  repeatInterval?: string;
  sendResolved?: boolean;
}

/**
 * A configuration that sends every group to the webhook `url`: by default at once, repeating
 * hourly, with the webhook's own `send_resolved` default.
 */
export function webhookConfig(url: string, options: WebhookConfigOptions = {}): string {
  const { groupWait = '0s', groupInterval = '1s', repeatInterval = '1h' } = options;
  const resolved =
    options.sendResolved === undefined ? '' : `\n        send_resolved: ${options.sendResolved}`;
  return `route:\n  receiver: hook\n  group_by: [alertname]\n  group_wait: ${groupWait}\n  group_interval: ${groupInterval}\n  repeat_interval: ${repeatInterval}\nreceivers:\n  - name: hook\n    webhook_configs:\n      - url: ${url}${resolved}\n`;
}
