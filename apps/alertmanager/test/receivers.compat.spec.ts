import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  EXTERNAL_URL,
  postScenarioAlerts,
  scenarioConfig,
  startUpstreamAt,
} from './support/notification-scenario';
import { startServerProcess, type ServerProcess } from './support/server-process';
import { SmtpTestServer } from './support/smtp-test-server';
import { UPSTREAM_BIN } from './support/upstream-alertmanager';
import { WebhookCollector } from './support/webhook-collector';
import { recordingOf, RECORDING_FILE, type Recording } from './support/upstream-recording';

/**
 * The notification scenario run on upstream Alertmanager (Debian's 0.25) and on this server
 * side by side: every chat, paging, webhook and email request must be equal field by field.
 * With `RECORD_UPSTREAM_FIXTURES=1` upstream's requests are also written to
 * `testdata/upstream-notifications.json`, the fixture the e2e and template tests compare with.
 */
const describeWithUpstream = UPSTREAM_BIN ? describe : describe.skip;
if (!UPSTREAM_BIN) {
  console.warn('upstream receiver comparison skipped: prometheus-alertmanager is not installed');
}

const PATHS = [
  '/slack-default',
  '/slack-custom',
  '/pagerduty-default',
  '/pagerduty-custom',
  '/webhook',
];
/** Path prefixes of integrations only upstream has (opsgenie closes at another path). */
const UPSTREAM_ONLY = ['/opsgenie', '/victorops', '/telegram', '/discord', '/webex'];

async function run(upstream: boolean, dir: string): Promise<Recording> {
  const http = await new WebhookCollector().start();
  const smtp = await new SmtpTestServer({ starttls: false }).start();
  const file = join(dir, upstream ? 'theirs.yml' : 'ours.yml');
  await writeFile(file, scenarioConfig({ http: http.url, smtp: smtp.address }, upstream));
  let server: ServerProcess | undefined;
  try {
    server = upstream
      ? await startUpstreamAt(file)
      : await startServerProcess(file, [
          `--web.external-url=${EXTERNAL_URL}`,
          '--web.route-prefix=/',
        ]);
    const prefixes = upstream ? [...PATHS, ...UPSTREAM_ONLY] : PATHS;
    await postScenarioAlerts(server.url, false);
    await waitUntil(() => prefixes.every((p) => countTo(http, p) >= 1) && smtp.mails.length >= 2);
    await postScenarioAlerts(server.url, true);
    await waitUntil(() => prefixes.every((p) => countTo(http, p) >= 2) && smtp.mails.length >= 4);
    return recordingOf(http, smtp, prefixes);
  } finally {
    await server?.stop();
    await http.stop();
    await smtp.stop();
  }
}

const countTo = (http: WebhookCollector, prefix: string) =>
  http.deliveries.filter((d) => d.path.split('?')[0].startsWith(prefix)).length;

async function waitUntil(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error("the scenario's notifications did not all arrive");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describeWithUpstream('receivers, side by side with upstream Alertmanager', () => {
  let dir: string;
  let theirs: Recording;
  let ours: Recording;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-receivers-'));
    [theirs, ours] = await Promise.all([run(true, dir), run(false, dir)]);
    if (process.env.RECORD_UPSTREAM_FIXTURES === '1') {
      await writeFile(RECORDING_FILE, `${JSON.stringify(theirs, null, 2)}\n`);
    }
  }, 60_000);

  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each(PATHS)('sends the same %s requests', (path) => {
    expect(ours.http[path]).toEqual(theirs.http[path]);
  });

  it('sends the same mails (headers, subject and text part)', () => {
    expect(ours.mails.map((m) => m.comparable)).toEqual(theirs.mails.map((m) => m.comparable));
  });
});
