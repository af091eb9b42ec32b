import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as bcrypt from 'bcryptjs';
import { describeWhen, httpAnswers } from '@redisx/testing';
import { chromium, type Browser, type Page } from 'playwright-core';
import { postAlerts } from './support/alerts-client';
import { startServerProcess, type ServerProcess } from './support/server-process';
import { WebhookCollector } from './support/webhook-collector';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
/** Screenshots of every page, for a reviewer to look at (not committed). */
const SCREENSHOTS = join(__dirname, '..', '..', '..', 'test-output', 'screenshots', 'web-ui');
const PREFIX = '/am';

const describeWithChromium = describeWhen(
  !!CHROMIUM,
  'web UI end-to-end skipped: no chromium installed (apt-get install chromium)',
);

describeWithChromium('the web UI', () => {
  /** One browser for both servers. */
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  describe('in headless Chromium', () => {
    let dir: string;
    let receiver: WebhookCollector;
    let server: ServerProcess;
    let base: string;
    let page: Page;
    /** Every address the page asked for, to check that none left the machine. */
    const requested: string[] = [];

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'am-ui-'));
      receiver = await new WebhookCollector().start();
      const config = join(dir, 'alertmanager.yml');
      await writeFile(
        config,
        `
route:
  receiver: team-web
  group_by: [alertname]
  group_wait: 0s
  group_interval: 1s
  repeat_interval: 1h
  routes:
    - receiver: team-db
      matchers: ['service="db"']
inhibit_rules:
  - source_matchers: [alertname="NodeDown"]
    target_matchers: [alertname="ServiceDown"]
    equal: [instance]
receivers:
  - name: team-web
    webhook_configs: [{url: '${receiver.url}/web'}]
  - name: team-db
    webhook_configs: [{url: '${receiver.url}/db', http_config: {basic_auth: {username: u, password: s3cret-pw}}}]
`,
      );
      const rulesConfig = join(dir, 'prometheus.yml');
      await writeFile(
        rulesConfig,
        `global: {evaluation_interval: 1s}\nrule_files: [${JSON.stringify(join(dir, 'rules.yml'))}]\n`,
      );
      await writeFile(
        join(dir, 'rules.yml'),
        `
groups:
  - name: ui-demo
    rules:
      - alert: RuleAlwaysFiring
        expr: vector(1) > 0
        labels: {service: rules}
      - alert: RuleStillPending
        expr: vector(2) > 1
        for: 1h
      - record: demo:answer
        expr: vector(42)
`,
      );
      server = await startServerProcess(
        config,
        [`--web.route-prefix=${PREFIX}`, `--rules.config.file=${rulesConfig}`],
        undefined,
        {
          scheme: 'http',
          ready: (url) => httpAnswers(`${url}${PREFIX}/-/healthy`),
        },
      );
      base = `${server.url}${PREFIX}`;
      page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      page.on('request', (r) => requested.push(r.url()));
      await mkdir(SCREENSHOTS, { recursive: true });
    }, 60_000);

    afterAll(async () => {
      await page?.close();
      await server?.stop();
      await receiver?.stop();
      await rm(dir, { recursive: true, force: true });
    });

    const shot = (name: string) =>
      page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
    /** The alert rows of the group of alerts named `name` (the page groups by alertname here). */
    const alertIn = (name: string) =>
      page.locator('article.group', { hasText: `alertname=${name}` }).locator('li.alert');

    it('serves the page at the route prefix, redirecting the bare prefix', async () => {
      const response = await page.goto(base);
      expect(response?.url()).toBe(`${base}/`);
      await page.getByRole('heading', { name: 'Alerts' }).waitFor();
      await shot('alerts-empty');
    });

    it('shows a posted alert in its group, with annotations as links, and its notification in the history', async () => {
      await postAlerts(server.url + PREFIX, [
        {
          labels: { alertname: 'DiskFull', service: 'db', instance: 'db-1' },
          annotations: { summary: 'disk 95% full', runbook: 'https://runbooks.example.org/disk' },
          generatorURL: 'http://prometheus.example.org/graph?g0.expr=disk',
        },
        { labels: { alertname: 'HighLatency', service: 'web' } },
      ]);
      await page.goto(`${base}/#/alerts`);
      const group = page.locator('article.group', { hasText: 'alertname=DiskFull' });
      await group.waitFor();
      await expect(group.locator('.receiver').textContent()).resolves.toBe('team-db');
      const link = alertIn('DiskFull').getByRole('link', {
        name: 'https://runbooks.example.org/disk',
      });
      await expect(link.getAttribute('href')).resolves.toBe('https://runbooks.example.org/disk');
      await alertIn('HighLatency').waitFor();
      await shot('alerts');

      await receiver.waitFor('/db', 1);
      await page.goto(`${base}/#/history`);
      const sent = page.locator('li.notification', { hasText: 'team-db' });
      await sent.first().waitFor();
      await expect(sent.first().textContent()).resolves.toContain('success');
      await expect(sent.first().textContent()).resolves.toContain('webhook[0]');
      await shot('history');
    });

    it('filters alerts by matchers in the API syntax, suggesting label names and values', async () => {
      await page.goto(`${base}/#/alerts`);
      await alertIn('HighLatency').waitFor();
      const suggestions = () =>
        page
          .locator('#alert-filter-suggestions option')
          .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
      await page.getByLabel('Filter').fill('serv');
      await expect(suggestions()).resolves.toEqual(['service=']);
      await page.getByLabel('Filter').fill('alertname="DiskFull", service=');
      await expect(suggestions()).resolves.toEqual(
        expect.arrayContaining([
          'alertname="DiskFull", service="db"',
          'alertname="DiskFull", service="web"',
        ]),
      );
      await page.getByLabel('Filter').fill('service="web"');
      await page.getByRole('button', { name: 'Apply' }).click();
      await alertIn('HighLatency').waitFor();
      await page.waitForFunction(() => !document.body.innerText.includes('DiskFull'));
      expect(page.url()).toContain('filter=service');
      // A matcher that does not parse is the API's message, on the page.
      await page.getByLabel('Filter').fill('service=~"("');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByRole('alert').waitFor();
      await expect(page.getByRole('alert').textContent()).resolves.toMatch(
        /bad matcher format|error parsing regexp/,
      );
      await shot('alerts-filtered');
    });

    it('creates a silence from an alert with a preview, sees the alert silenced, and expires it', async () => {
      await page.goto(`${base}/#/alerts`);
      await alertIn('DiskFull').getByRole('link', { name: 'Silence' }).click();
      const matchers = page.getByLabel('Matchers');
      await expect(matchers.inputValue()).resolves.toBe(
        'alertname="DiskFull", instance="db-1", service="db"',
      );
      await page.getByLabel('Created by').fill('ui-test');
      await page.getByRole('button', { name: 'Preview alerts' }).click();
      await page.getByText('1 alert would be silenced').waitFor();
      await shot('silence-new');
      // The API refuses an empty comment; its message is shown in the form.
      await page.getByRole('button', { name: 'Create' }).click();
      await page.getByRole('alert').waitFor();
      await expect(page.getByRole('alert').textContent()).resolves.toContain('comment');
      await page.getByLabel('Comment').fill('disk replaced tonight');
      await page.getByRole('button', { name: 'Create' }).click();
      await page.getByRole('heading', { name: 'Silence', exact: true }).waitFor();
      const id = await page.locator('li.silence').getAttribute('data-silence-id');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      // Edited in place (a new comment keeps the id, as upstream), then duplicated into a new form.
      await page.getByRole('link', { name: 'Edit' }).click();
      await page.getByRole('heading', { name: 'Edit silence' }).waitFor();
      await page.waitForFunction(
        () => (document.querySelector('#silence-comment') as HTMLInputElement)?.value !== '',
      );
      await expect(page.getByLabel('Comment').inputValue()).resolves.toBe('disk replaced tonight');
      await page.getByLabel('Comment').fill('disk replaced tomorrow');
      await page.getByRole('button', { name: 'Update' }).click();
      await page.locator('li.silence', { hasText: 'disk replaced tomorrow' }).waitFor();
      const edited = await fetch(`${base}/api/v2/silence/${id}`).then((r) => r.json());
      expect(edited.comment).toBe('disk replaced tomorrow');
      await page.getByRole('link', { name: 'Duplicate' }).click();
      await page.getByRole('heading', { name: 'New silence' }).waitFor();
      await page.waitForFunction(
        () => (document.querySelector('#silence-matchers') as HTMLInputElement)?.value !== '',
      );
      await expect(page.getByLabel('Matchers').inputValue()).resolves.toBe(
        'alertname="DiskFull", instance="db-1", service="db"',
      );

      await page.goto(`${base}/#/alerts`);
      await alertIn('HighLatency').waitFor();
      expect(await alertIn('DiskFull').count()).toBe(0);
      await page.getByLabel('Silenced').check();
      await alertIn('DiskFull').waitFor();
      await expect(alertIn('DiskFull').textContent()).resolves.toContain('Silenced by');
      await shot('alerts-silenced');

      await page.goto(`${base}/#/silences`);
      await page.locator('li.silence').first().waitFor();
      await shot('silences');
      await page
        .locator(`li.silence[data-silence-id="${id}"]`)
        .getByRole('button', { name: 'Expire' })
        .click();
      await page.waitForFunction(
        (silence) => !document.querySelector(`li.silence[data-silence-id="${silence}"]`),
        id,
      );
      await page.getByRole('link', { name: /^expired/ }).click();
      await page.locator(`li.silence[data-silence-id="${id}"]`).waitFor();
      const state = await fetch(`${base}/api/v2/silence/${id}`).then((r) => r.json());
      expect(state.status.state).toBe('expired');
      await page.goto(`${base}/#/alerts`);
      await alertIn('DiskFull').waitFor();
    });

    it('shows an inhibited alert behind the toggle, naming the alert that inhibits it', async () => {
      await postAlerts(server.url + PREFIX, [
        { labels: { alertname: 'NodeDown', instance: 'node-7' } },
        { labels: { alertname: 'ServiceDown', instance: 'node-7' } },
      ]);
      await page.goto(`${base}/#/alerts`);
      await alertIn('NodeDown').waitFor();
      expect(await alertIn('ServiceDown').count()).toBe(0);
      await page.getByLabel('Inhibited').check();
      const inhibited = alertIn('ServiceDown');
      await inhibited.locator('.inhibitor', { hasText: 'alertname=NodeDown' }).waitFor();
      await expect(inhibited.locator('.badge').first().textContent()).resolves.toBe('suppressed');
      await shot('alerts-inhibited');
      await page.getByLabel('Inhibited').uncheck();
    });

    it('draws the routing tree and tells where labels would go', async () => {
      await page.goto(`${base}/#/routing`);
      await page.locator('.route-tree .route').nth(1).waitFor();
      await page.getByLabel('Labels').fill('alertname=X service=db');
      await page.getByRole('button', { name: 'Test' }).click();
      await expect(page.locator('#route-result').textContent()).resolves.toContain('team-db');
      await expect(page.locator('.route-matched .receiver').textContent()).resolves.toBe('team-db');
      await shot('routing');
    });

    it('shows the status with secrets hidden, and the rules page', async () => {
      await page.goto(`${base}/#/status`);
      await page.locator('pre.config').waitFor();
      const config = await page.locator('pre.config').textContent();
      expect(config).toContain('<secret>');
      expect(config).not.toContain('s3cret-pw');
      await page.locator('#reload-status', { hasText: 'successful' }).waitFor();
      await shot('status');
      await page.goto(`${base}/#/rules`);
      const group = page.locator('article.card', { hasText: 'ui-demo' });
      await group
        .locator('li.rule', { hasText: 'RuleAlwaysFiring' })
        .locator('.badge-firing')
        .first()
        .waitFor();
      await group
        .locator('li.rule', { hasText: 'RuleStillPending' })
        .locator('.badge-pending')
        .first()
        .waitFor();
      await expect(
        group.locator('li.rule', { hasText: 'demo:answer' }).textContent(),
      ).resolves.toContain('vector(42)');
      await shot('rules');
    });

    it('follows the server without a reload', async () => {
      await page.goto(`${base}/#/alerts`);
      await alertIn('HighLatency').waitFor();
      await postAlerts(server.url + PREFIX, [{ labels: { alertname: 'ArrivedLater' } }]);
      await alertIn('ArrivedLater').waitFor({ timeout: 15_000 });
    });

    it('has a dark theme, fits a phone, and is reachable by keyboard', async () => {
      await page.goto(`${base}/#/alerts`);
      await page.getByRole('button', { name: 'Switch to dark theme' }).click();
      await page.waitForFunction(() => document.documentElement.dataset['theme'] === 'dark');
      await alertIn('HighLatency').waitFor();
      await shot('alerts-dark');
      await page.setViewportSize({ width: 390, height: 844 });
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await shot('alerts-phone');
      // From the top of a fresh page: the skip link first, then the brand and the page links.
      await page.reload();
      await page.getByRole('heading', { name: 'Alerts' }).waitFor();
      const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '');
      await page.keyboard.press('Tab');
      await expect(focused()).resolves.toBe('Skip to content');
      for (const expected of ['RedisX Alertmanager', 'Alerts', 'Silences']) {
        await page.keyboard.press('Tab');
        await expect(focused()).resolves.toBe(expected);
      }
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Silences' }).waitFor();
      await page.setViewportSize({ width: 1200, height: 900 });
    });

    it('asked nothing of any host but the server', () => {
      const elsewhere = requested.filter((url) => !url.startsWith(`${server.url}/`));
      expect(elsewhere).toEqual([]);
      expect(requested.some((url) => url.endsWith('/public/app.js'))).toBe(true);
    });
  });

  describe('behind an external URL with a path and basic auth', () => {
    let dir: string;
    let server: ServerProcess;

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'am-ui-auth-'));
      const config = join(dir, 'alertmanager.yml');
      await writeFile(config, 'route: {receiver: default}\nreceivers: [{name: default}]\n');
      const web = join(dir, 'web.yml');
      await writeFile(web, `basic_auth_users:\n  admin: ${bcrypt.hashSync('s3cret', 6)}\n`);
      server = await startServerProcess(
        config,
        ['--web.external-url=https://alerts.example.org/ops/am/', `--web.config.file=${web}`],
        undefined,
        {
          scheme: 'http',
          ready: async (url) => (await fetch(`${url}/ops/am/-/healthy`)).status < 500,
        },
      );
    }, 60_000);

    afterAll(async () => {
      await server?.stop();
      await rm(dir, { recursive: true, force: true });
    });

    it('asks for credentials, then serves the UI and its API calls under the path', async () => {
      for (const asset of ['/ops/am/', '/ops/am/public/app.js']) {
        const refused = await fetch(`${server.url}${asset}`);
        expect([asset, refused.status, refused.headers.get('www-authenticate')]).toEqual([
          asset,
          401,
          'Basic',
        ]);
      }

      const context = await browser.newContext({
        httpCredentials: { username: 'admin', password: 's3cret' },
      });
      const page = await context.newPage();
      const calls: string[] = [];
      page.on('response', (r) => calls.push(`${r.status()} ${new URL(r.url()).pathname}`));
      await page.goto(`${server.url}/ops/am/`);
      await page.getByText('0 alerts in 0 groups').waitFor();
      await page.getByRole('link', { name: 'Status' }).click();
      await page.locator('pre.config').waitFor();
      expect(calls).toEqual(
        expect.arrayContaining([
          '200 /ops/am/',
          '200 /ops/am/public/app.js',
          '200 /ops/am/api/v2/alerts/groups',
          '200 /ops/am/api/v2/status',
        ]),
      );
      expect(calls.filter((c) => !c.startsWith('200 ') && !c.startsWith('304 '))).toEqual([]);
      await context.close();
    });
  });
});
