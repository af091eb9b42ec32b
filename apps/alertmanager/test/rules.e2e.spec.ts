import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProcess, waitFor } from '@redisx/testing';
import { ALERTMANAGER_BIN, startServerProcess, type ServerProcess } from './support/server-process';
import { WebhookCollector } from './support/webhook-collector';

/**
 * Rules from `--rules.config.file` evaluated in the running server: alerts reach a webhook
 * through the routing tree with no HTTP hop, the rules and alerts APIs show them as Prometheus
 * does, a reload swaps the rules (the removed alert resolves), and a bad rule file is refused
 * at start and at reload without touching the running rules.
 */
/** A Prometheus API answer, loosely typed for assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { status: string; data: any; error?: string; errorType?: string };

async function getJson(url: string): Promise<Answer> {
  return (await (await fetch(url)).json()) as Answer;
}

describe('rules evaluated by the server', () => {
  let dir: string;
  let hook: WebhookCollector;
  let server: ServerProcess;

  const RULES = `groups:
  - name: always
    interval: 1s
    rules:
      - record: answer
        expr: vector(42)
      - alert: AlwaysOn
        expr: answer > 40
        labels: {severity: page}
        annotations: {summary: 'the answer is {{ $value }}'}
`;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-rules-'));
    hook = await new WebhookCollector().start();
    await writeFile(
      join(dir, 'am.yml'),
      `route:
  receiver: hook
  group_by: [alertname]
  group_wait: 0s
  group_interval: 1s
receivers:
  - name: hook
    webhook_configs:
      - url: ${hook.url}/rules
        send_resolved: true
`,
    );
    await writeFile(join(dir, 'rules.yml'), RULES);
    await writeFile(
      join(dir, 'prometheus.yml'),
      `global:
  evaluation_interval: 1s
  external_labels: {cluster: test}
rule_files: [rules.yml]
alerting:
  alert_relabel_configs:
    - target_label: source
      replacement: rules
  alertmanagers:
    - path_prefix: /external
      static_configs:
        - targets: ['${new URL(hook.url).host}']
`,
    );
    server = await startServerProcess(join(dir, 'am.yml'), [
      `--rules.config.file=${join(dir, 'prometheus.yml')}`,
    ]);
  });

  afterAll(async () => {
    await server?.stop();
    await hook.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('sends the firing alert through the routing tree with the external labels', async () => {
    const [delivery] = await hook.waitFor('/rules', 1);
    expect(delivery.body.status).toBe('firing');
    const [alert] = delivery.body.alerts;
    expect(alert.labels).toEqual({
      alertname: 'AlwaysOn',
      severity: 'page',
      cluster: 'test',
      source: 'rules',
    });
    expect(alert.annotations).toEqual({ summary: 'the answer is 42' });
    expect(alert.generatorURL).toMatch(/\/graph\?g0\.expr=answer\+%3E\+40&g0\.tab=1$/);
  });

  it('also sends the alert to the external Alertmanagers of alerting.alertmanagers', async () => {
    const [request] = await hook.waitFor('/external/api/v2/alerts', 1);
    const alerts = request.body as unknown as {
      labels: Record<string, string>;
      startsAt: string;
      endsAt: string;
      generatorURL: string;
    }[];
    expect(alerts[0].labels).toEqual({
      alertname: 'AlwaysOn',
      severity: 'page',
      cluster: 'test',
      source: 'rules',
    });
    expect(Date.parse(alerts[0].endsAt)).toBeGreaterThan(Date.parse(alerts[0].startsAt));
    expect(alerts[0].generatorURL).toContain('/graph?g0.expr=');
    expect(request.headers['content-type']).toBe('application/json');
  });

  it('lists the groups and rules as Prometheus does', async () => {
    const body = await getJson(`${server.url}/api/v1/rules`);
    expect(body.status).toBe('success');
    const [group] = body.data.groups;
    expect(group).toMatchObject({
      name: 'always',
      file: join(dir, 'rules.yml'),
      interval: 1,
      limit: 0,
    });
    expect(group.rules.map((r: { type: string; name: string }) => `${r.type} ${r.name}`)).toEqual([
      'recording answer',
      'alerting AlwaysOn',
    ]);
    const alerting = group.rules[1];
    expect(alerting).toMatchObject({
      state: 'firing',
      query: 'answer > 40',
      duration: 0,
      keepFiringFor: 0,
      labels: { severity: 'page' },
      annotations: { summary: 'the answer is {{ $value }}' },
      health: 'ok',
    });
    expect(alerting.alerts[0]).toMatchObject({
      labels: { alertname: 'AlwaysOn', severity: 'page' },
      state: 'firing',
      value: '4.2e+01',
    });
    expect(alerting.alerts[0].activeAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);

    const onlyRecording = await getJson(`${server.url}/api/v1/rules?type=record`);
    expect(onlyRecording.data.groups[0].rules).toHaveLength(1);
    const bad = await fetch(`${server.url}/api/v1/rules?type=nope`);
    expect(bad.status).toBe(400);
    expect((await bad.json()) as Answer).toEqual({
      status: 'error',
      errorType: 'bad_data',
      error: 'invalid parameter "type": not supported value "nope"',
    });

    const alerts = await getJson(`${server.url}/api/v1/alerts`);
    expect(alerts.data.alerts).toHaveLength(1);
  });

  it('answers queries on what the rules recorded, by GET and by a POSTed form', async () => {
    const get = await getJson(`${server.url}/api/v1/query?query=answer`);
    expect(get).toMatchObject({ status: 'success', data: { resultType: 'vector' } });
    expect(get.data.result[0]).toMatchObject({
      metric: { __name__: 'answer' },
      value: [expect.any(Number), '42'],
    });
    // ALERTS is written once the rule's `for` state was restored, after its second evaluation.
    await waitFor('ALERTS by a POSTed query', async () => {
      const posted = await fetch(`${server.url}/api/v1/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'query=count(ALERTS%7Balertstate%3D%22firing%22%7D)',
      });
      return ((await posted.json()) as Answer).data.result[0]?.value[1] === '1';
    });
    const values = await getJson(`${server.url}/api/v1/label/__name__/values`);
    expect(values.data).toEqual(expect.arrayContaining(['ALERTS', 'ALERTS_FOR_STATE', 'answer']));
    const bad = await fetch(`${server.url}/api/v1/query?query=sum(`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as Answer).error).toBe(
      'invalid parameter "query": 1:5: parse error: unclosed left parenthesis',
    );
    const build = await getJson(`${server.url}/api/v1/status/buildinfo`);
    expect(build.data.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('exports the rule manager metrics under Prometheus names', async () => {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    const group = `${join(dir, 'rules.yml')};always`;
    expect(text).toContain(`prometheus_rule_group_rules{rule_group="${group}"} 2`);
    expect(text).toMatch(
      new RegExp(
        `prometheus_rule_evaluations_total\\{rule_group="${group.replace(/[/.]/g, '\\$&')}"\\} [1-9]`,
      ),
    );
  });

  it('refuses a reload with a broken rule file and keeps evaluating the old rules', async () => {
    await writeFile(
      join(dir, 'rules.yml'),
      'groups:\n  - name: always\n    rules:\n      - alert: X\n        expr: up ==\n',
    );
    const reload = await fetch(`${server.url}/-/reload`, { method: 'POST' });
    expect(reload.status).toBe(500);
    expect(await reload.text()).toContain('could not parse expression');
    const body = await getJson(`${server.url}/api/v1/rules`);
    expect(body.data.groups[0].rules).toHaveLength(2);
  });

  it('resolves the alert when its expression stops matching', async () => {
    await writeFile(join(dir, 'rules.yml'), RULES.replace('vector(42)', 'vector(1)'));
    const reload = await fetch(`${server.url}/-/reload`, { method: 'POST' });
    expect(reload.status).toBe(200);
    const isResolved = (d: { body: { status: string } }) => d.body.status === 'resolved';
    await waitFor('the resolved notification', async () => hook.to('/rules').some(isResolved));
    const resolved = hook.to('/rules').find(isResolved);
    expect(resolved?.body.alerts[0].labels['alertname']).toBe('AlwaysOn');
    const body = await getJson(`${server.url}/api/v1/rules`);
    expect(body.data.groups[0].rules[1].state).toBe('inactive');
  });

  it('drops the alerts of a removed rule, which the dispatcher keeps until their end', async () => {
    await writeFile(join(dir, 'rules.yml'), RULES);
    await fetch(`${server.url}/-/reload`, { method: 'POST' });
    await waitFor('the alert firing again', async () => {
      const alerts = await getJson(`${server.url}/api/v1/alerts`);
      return alerts.data.alerts.length === 1;
    });
    await writeFile(join(dir, 'rules.yml'), RULES.replace(/ {6}- alert: AlwaysOn[\s\S]*$/, ''));
    expect((await fetch(`${server.url}/-/reload`, { method: 'POST' })).status).toBe(200);
    const body = await getJson(`${server.url}/api/v1/alerts`);
    expect(body.data.alerts).toEqual([]);
    // As with Prometheus, no resolution is sent: the alert ends when its endsAt passes.
    const response = await fetch(`${server.url}/api/v2/alerts?active=true`);
    const active = (await response.json()) as { labels: Record<string, string>; endsAt: string }[];
    const alert = active.find((a) => a.labels['alertname'] === 'AlwaysOn');
    expect(Date.parse(alert?.endsAt ?? '')).toBeGreaterThan(Date.now());
  });
});

describe('a bad --rules.config.file', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-rules-bad-'));
    await writeFile(join(dir, 'am.yml'), 'route:\n  receiver: none\nreceivers:\n  - name: none\n');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each([
    ['an empty job name', 'scrape_configs:\n  - job_name: ""\n', 'job_name is empty'],
    [
      'a relabeling rule with an unknown action',
      'scrape_configs:\n  - job_name: a\n    relabel_configs:\n      - action: explode\n',
      'prometheus.yml:4: scrape_configs[0].relabel_configs[0]: unknown relabel action \\"explode\\"',
    ],
    [
      'a rule file that does not decode',
      'rule_files: [broken.yml]\n',
      'broken.yml: yaml: unmarshal errors:\\n  line 1: field groupz not found in type rulefmt.RuleGroups',
    ],
  ])('stops the start and names the problem: %s', async (_case, text, expected) => {
    await writeFile(join(dir, 'broken.yml'), 'groupz: []\n');
    await writeFile(join(dir, 'prometheus.yml'), text);
    const proc = startProcess(process.execPath, [
      ALERTMANAGER_BIN,
      `--config.file=${join(dir, 'am.yml')}`,
      `--storage.path=${join(dir, 'data')}`,
      '--web.listen-address=127.0.0.1:0',
      `--rules.config.file=${join(dir, 'prometheus.yml')}`,
    ]);
    await waitFor('the exit', async () => proc.child.exitCode !== null);
    expect(proc.child.exitCode).toBe(1);
    expect(proc.output()).toContain('Startup failed');
    expect(proc.output()).toContain(expected);
  });
});
