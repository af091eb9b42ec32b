import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpsStandIn } from './support/https-stand-in';
import { startServerProcess, type ServerProcess } from './support/server-process';
import { WebhookCollector } from './support/webhook-collector';

const CONFIG_DIR = join(__dirname, '..', 'config');

/**
 * A bundled example with local stand-ins: the secret files it names are written to a temporary
 * directory (the chat URL pointing at the loopback recorder, the paging keys), PagerDuty is
 * reached through a proxy (`global.http_config`, as behind a corporate proxy), and its timers are
 * cut to 1s so that a resolution arrives within the test.
 */
async function standIn(
  file: string,
  dir: string,
  http: string,
  paging: HttpsStandIn,
): Promise<string> {
  const secrets: Record<string, string> = {
    'chat-webhook-url': `${http}/chat`,
    'paging-service-key': 'standard-service-key',
    'infrastructure-paging-service-key': 'infrastructure-service-key',
    'smtp-password': 'smtp-password',
    'webhook-url': `${http}/webhook`,
  };
  for (const [name, value] of Object.entries(secrets)) await writeFile(join(dir, name), value);
  const text = (await readFile(join(CONFIG_DIR, file), 'utf8'))
    .replaceAll('/etc/alertmanager/secrets', dir)
    .replace(/(group_wait|group_interval): \w+/g, '$1: 1s')
    .replace(
      /^global:\n/m,
      `global:\n  http_config:\n    proxy_url: ${paging.proxyUrl}\n    no_proxy: 127.0.0.1\n` +
        `    tls_config: {ca_file: '${paging.caFile}'}\n`,
    );
  const out = join(dir, file);
  await writeFile(out, text);
  return out;
}

function alert(labels: Record<string, string>, resolved: boolean) {
  const now = Date.now();
  return {
    labels,
    annotations: {
      summary: `${labels.alertname} summary`,
      description: `${labels.alertname} description`,
    },
    startsAt: new Date(now - 60_000).toISOString(),
    ...(resolved ? { endsAt: new Date(now).toISOString() } : {}),
  };
}

async function post(server: ServerProcess, alerts: Record<string, string>[], resolved: boolean) {
  const res = await fetch(`${server.url}/api/v2/alerts`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(alerts.map((a) => alert(a, resolved))),
  });
  expect(res.status).toBe(200);
}

type Body = Record<string, unknown> & { attachments?: { title: string; text: string }[] };

/** Runs one example: the alerts fire, then resolve; returns the requests by stand-in path. */
async function runExample(file: string, alerts: Record<string, string>[], expected: number) {
  const dir = await mkdtemp(join(tmpdir(), 'am-example-'));
  const http = await new WebhookCollector().start();
  const paging = await new HttpsStandIn(http, '/paging').start(dir);
  const server = await startServerProcess(await standIn(file, dir, http.url, paging));
  try {
    await post(server, alerts, false);
    await waitForCount(http, expected);
    await post(server, alerts, true);
    await waitForCount(http, expected * 2);
    return (path: string) => http.to(path).map((d) => d.body as unknown as Body);
  } finally {
    await server.stop();
    await paging.stop();
    await http.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

async function waitForCount(http: WebhookCollector, count: number) {
  const deadline = Date.now() + 15_000;
  while (http.deliveries.length < count) {
    if (Date.now() > deadline)
      throw new Error(`expected ${count} deliveries, got ${http.deliveries.length}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const chatOf = (bodies: Body[], channel: string) =>
  bodies
    .filter((b) => b.channel === channel)
    .map((b) => [b.attachments?.[0].title, b.attachments?.[0].text]);

describe('the bundled example setups deliver with the spec templates', () => {
  it('standard: warnings to chat, critical alerts to paging, firing then resolved', async () => {
    const requests = await runExample(
      'alertmanager.yml',
      [
        { alertname: 'CacheFull', severity: 'warning' },
        { alertname: 'RedisDown', severity: 'critical' },
      ],
      2,
    );
    expect(chatOf(requests('/chat'), '#alerts')).toEqual([
      ['CacheFull', '*CacheFull summary*\nCacheFull description (severity: warning)\n'],
      ['CacheFull', '*CacheFull summary*\nCacheFull description (severity: warning)\n'],
    ]);
    expect(requests('/paging').map((b) => [b.service_key, b.event_type, b.description])).toEqual([
      ['standard-service-key', 'trigger', 'RedisDown: RedisDown summary '],
      ['standard-service-key', 'resolve', 'RedisDown: RedisDown summary '],
    ]);
  }, 40_000);

  it('alternative: team receivers first, then severity routing', async () => {
    const requests = await runExample(
      'alertmanager-alternative.yml',
      [
        { alertname: 'HighAPIErrorRate', severity: 'warning', team: 'backend' },
        { alertname: 'DiskSpaceLow', severity: 'critical', team: 'infrastructure' },
      ],
      4,
    );
    expect(chatOf(requests('/chat'), '#backend-alerts')).toEqual([
      ['HighAPIErrorRate', 'HighAPIErrorRate summary '],
      ['HighAPIErrorRate', 'HighAPIErrorRate summary '],
    ]);
    expect(chatOf(requests('/chat'), '#alerts')).toHaveLength(2);
    const paging = requests('/paging').map((b) => [b.service_key, b.event_type, b.description]);
    expect(paging).toEqual(
      expect.arrayContaining([
        ['infrastructure-service-key', 'trigger', 'DiskSpaceLow: DiskSpaceLow summary '],
        ['infrastructure-service-key', 'resolve', 'DiskSpaceLow: DiskSpaceLow summary '],
        ['standard-service-key', 'trigger', 'DiskSpaceLow: DiskSpaceLow summary '],
        ['standard-service-key', 'resolve', 'DiskSpaceLow: DiskSpaceLow summary '],
      ]),
    );
  }, 40_000);
});
