import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@redisx/testing';
import { startServerProcess, type ServerProcess } from './support/server-process';
import { WebhookCollector } from './support/webhook-collector';
import { webhookConfig, writeWorkStore } from './support/work-store';

const STEP = 15_000;
const SERIES = 400;
const STEPS = 6 * 240;
/** How long alerts are posted and `/-/healthy` probed while the group evaluates. */
const WINDOW_MS = 8_000;

/** A group of recording rules that each read every sample of six hours through a subquery. */
const HEAVY_RULES = `groups:
  - name: heavy
    interval: 2s
    rules:
${[0.5, 0.9, 0.99, 0.999]
  .map(
    (q, i) => `      - record: work:heavy_${i}
        expr: sum by (group) (quantile_over_time(${q}, rate(work_total[5m])[6h:5s]))`,
  )
  .join('\n')}
`;

interface RulesApiGroup {
  name: string;
  evaluationTime: number;
  lastEvaluation: string;
  rules: { health: string; lastError?: string }[];
}

/**
 * Rule groups evaluate on a query thread: while a heavy recording-rule group evaluates back to
 * back, posted alerts are acknowledged, `/-/healthy` answers and a notification is sent on time.
 * An evaluation on the main thread would hold each of them for about the group's evaluation
 * time; the bounds here are loose, the benchmark (`tools/bench/query-isolation.bench.mjs`,
 * the heavy-rules case) holds the tight numbers.
 */
describe('a heavy rule group does not stall alerting', () => {
  let dir: string;
  let hook: WebhookCollector;
  let server: ServerProcess;
  const end = Math.floor(Date.now() / STEP) * STEP;

  const heavyGroup = async (): Promise<RulesApiGroup | undefined> => {
    const res = await fetch(`${server.url}/api/v1/rules?type=record`);
    const body = (await res.json()) as { data: { groups: RulesApiGroup[] } };
    return body.data.groups.find((g) => g.name === 'heavy');
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-rule-isolation-'));
    await writeWorkStore(dir, SERIES, STEPS, end);
    hook = await new WebhookCollector().start();
    await writeFile(join(dir, 'am.yml'), webhookConfig(hook.url));
    await writeFile(join(dir, 'heavy.rules.yml'), HEAVY_RULES);
    await writeFile(
      join(dir, 'prometheus.yml'),
      `global:\n  evaluation_interval: 1m\nrule_files: [${join(dir, 'heavy.rules.yml')}]\n`,
    );
    server = await startServerProcess(
      join(dir, 'am.yml'),
      [`--rules.config.file=${join(dir, 'prometheus.yml')}`],
      join(dir, 'data'),
    );
    // The group has evaluated once: its thread is started and its code compiled.
    await waitFor(
      'the heavy group to evaluate',
      async () => (await heavyGroup())?.lastEvaluation.startsWith('20') === true,
      60_000,
    );
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await hook?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('acknowledges alerts, answers /-/healthy and notifies on time while the group evaluates', async () => {
    const probes: number[] = [];
    const acks: number[] = [];
    let posted = 0;
    const started = Date.now();
    for (let i = 0; Date.now() - started < WINDOW_MS && i < 400; i++) {
      const before = Date.now();
      if (i % 20 === 0) {
        const ack = await fetch(`${server.url}/api/v2/alerts`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify([{ labels: { alertname: 'DuringRules', n: `${i}` } }]),
        });
        expect(ack.status).toBe(200);
        acks.push(Date.now() - before);
        posted ||= before;
      } else {
        expect((await fetch(`${server.url}/-/healthy`)).status).toBe(200);
        probes.push(Date.now() - before);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const [delivery] = await hook.waitFor('/hook', 1, 30_000);
    expect(delivery.body.alerts[0].labels.alertname).toBe('DuringRules');

    const group = (await heavyGroup()) as RulesApiGroup;
    expect(group.rules.map((r) => r.health)).toEqual(['ok', 'ok', 'ok', 'ok']);
    const evaluationMs = group.evaluationTime * 1000;
    // The group is heavy: it evaluated nearly back to back through the window.
    expect(evaluationMs).toBeGreaterThan(200);
    const worst = Math.max(...probes, ...acks);
    expect(worst).toBeLessThan(Math.max(evaluationMs / 2, 150));
    expect(Math.max(...acks)).toBeLessThan(2_000);
    // group_wait is 1 s.
    expect(delivery.at - posted).toBeLessThan(5_000);

    // What the group recorded is in the store, written by the main thread.
    const res = await fetch(`${server.url}/api/v1/query?query=count(work:heavy_0)`);
    const answer = (await res.json()) as { data: { result: { value: [number, string] }[] } };
    expect(answer.data.result[0].value[1]).toBe('10');
  }, 120_000);
});
