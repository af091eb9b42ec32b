import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import {
  getFreePort,
  startPrivateRedis,
  startProcess,
  waitFor,
  type TestRedis,
} from '@redisx/testing';
import { startServerProcess, type ServerProcess } from './server-process';
import { WebhookCollector } from './webhook-collector';

const REPO = join(__dirname, '..', '..', '..', '..');
const EXAMPLE_MAIN = join(REPO, 'apps', 'tracing-example', 'dist', 'main.js');
const RULES = join(__dirname, '..', '..', 'config', 'rules');
/** The specification's rules and the server's own, which name the trace of a slow command. */
const RULE_FILES = ['redisx.rules.yml', join('server-only', 'redisx-traces.rules.yml')];

/** The tracing example app and the server watching it, for one spec. */
export interface TracingExampleStack {
  /** The example's own Redis server (specs block it on purpose). */
  readonly redis: TestRedis;
  readonly example: ReturnType<typeof startProcess>;
  readonly exampleUrl: string;
  readonly hook: WebhookCollector;
  readonly server: ServerProcess;
  stop(): Promise<void>;
}

/**
 * The tracing example app (`@redisx/tracing` with the `myapp_redis_` metrics, its console exporter
 * printing every trace) on a Redis server of its own, scraped every second by the server with the
 * bundled rules, the specification's and the server's own (intervals cut to 1 s, `for` to 2 s),
 * whose alerts go to a loopback webhook (`/alerts`, grouped by alert name, `route` adding to the
 * route's settings). What fails to start is stopped again.
 */
export async function startTracingExampleStack(
  options: { route?: string; serverArgs?: readonly string[] } = {},
): Promise<TracingExampleStack> {
  const stops: Array<() => Promise<unknown>> = [];
  const stop = async () => {
    for (const step of stops.reverse()) await step();
  };
  try {
    const redis = await startPrivateRedis();
    stops.push(() => redis.stop());
    const port = await getFreePort();
    const exampleUrl = `http://127.0.0.1:${port}`;
    const example = startProcess(process.execPath, [EXAMPLE_MAIN], {
      env: { PORT: String(port), REDIS_URL: redis.url },
    });
    stops.push(() => example.stop());
    await waitFor('the example app', async () => {
      if (example.child.exitCode !== null) throw new Error(example.output());
      return (await fetch(`${exampleUrl}/metrics`).catch(() => undefined))?.status === 200;
    });
    const dir = await mkdtemp(join(tmpdir(), 'am-tracing-example-'));
    stops.push(() => rm(dir, { recursive: true, force: true }));
    const hook = await new WebhookCollector().start();
    stops.push(() => hook.stop());
    for (const file of RULE_FILES) {
      const rules = (await readFile(join(RULES, file), 'utf8'))
        .replace(/interval: 15s/g, 'interval: 1s')
        .replace(/for: \d+m/g, 'for: 2s');
      await writeFile(join(dir, basename(file)), rules);
    }
    await writeFile(
      join(dir, 'prometheus.yml'),
      `global:\n  scrape_interval: 1s\n  scrape_timeout: 500ms\n  evaluation_interval: 1s\nrule_files: ['*.rules.yml']\nscrape_configs:\n  - job_name: tracing-example\n    static_configs:\n      - targets: ['127.0.0.1:${port}']\n`,
    );
    await writeFile(
      join(dir, 'am.yml'),
      `route:\n  receiver: hook\n  group_by: [alertname]\n  group_wait: 0s\n  group_interval: 1s\n${options.route ?? ''}receivers:\n  - name: hook\n    webhook_configs:\n      - url: ${hook.url}/alerts\n`,
    );
    const server = await startServerProcess(join(dir, 'am.yml'), [
      `--rules.config.file=${join(dir, 'prometheus.yml')}`,
      ...(options.serverArgs ?? []),
    ]);
    stops.push(() => server.stop());
    return { redis, example, exampleUrl, hook, server, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
