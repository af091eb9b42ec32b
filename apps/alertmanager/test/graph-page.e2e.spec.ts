import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  describeWhen,
  getFreePort,
  httpAnswers,
  startProcess,
  waitFor,
  type RunningProcess,
} from '@redisx/testing';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM, openRecordingPage } from './support/chromium-page';
import { writeScrapingRulesConfig } from './support/scraping-rules-config';
import { ALERTMANAGER_BIN, hasListened } from './support/server-process';

/** Screenshots of the graph page, for a reviewer to look at (not committed). */
const SCREENSHOTS = join(__dirname, '..', '..', '..', 'test-output', 'screenshots', 'graph-page');
const PREFIX = '/am';
/** Generous for slow machines: the first scrape, rule evaluation and a browser's first paint. */
const SLOW = { timeout: 30_000 };
jest.setTimeout(60_000);

/** The exporter's queues: three series, two of them above the rule's threshold. */
const QUEUES: Record<string, number> = { orders: 12, mail: 7, audit: 1 };
const EXPOSITION = [
  '# HELP demo_queue_depth Messages waiting in a queue.',
  '# TYPE demo_queue_depth gauge',
  ...Object.entries(QUEUES).map(([queue, depth]) => `demo_queue_depth{queue="${queue}"} ${depth}`),
  '',
].join('\n');

const describeWithChromium = describeWhen(
  !!CHROMIUM,
  'graph page end-to-end skipped: no chromium installed (apt-get install chromium)',
);

/**
 * The graph page at `/graph` on the real server behind an external URL with a path: a rule over
 * a scraped loopback exporter fires, its alert's `generatorURL` opens the page on that
 * expression, and the page draws, lists and completes what the server's API answers.
 */
describeWithChromium('the graph page', () => {
  let dir: string;
  let exporter: Server;
  let server: RunningProcess;
  let base: string;
  let browser: Browser;
  let page: Page;
  /** Every address the page asked for. */
  const requested: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-graph-'));
    exporter = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(EXPOSITION);
    });
    await new Promise<void>((resolve) => exporter.listen(0, '127.0.0.1', resolve));
    const target = `127.0.0.1:${(exporter.address() as AddressInfo).port}`;
    const config = await writeScrapingRulesConfig(
      dir,
      'demo',
      target,
      `groups:\n  - name: queues\n    rules:\n      - alert: QueueBacklog\n        expr: demo_queue_depth > 5\n`,
    );
    // The external URL names this loopback port, so the alert's generatorURL reaches this server.
    const port = await getFreePort();
    base = `http://127.0.0.1:${port}${PREFIX}`;
    server = startProcess(process.execPath, [
      ALERTMANAGER_BIN,
      `--config.file=${config.alertmanager}`,
      `--storage.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      `--web.external-url=${base}/`,
      `--rules.config.file=${config.prometheus}`,
    ]);
    await waitFor(
      'the server',
      async () => hasListened(server) && httpAnswers(`${base}/-/healthy`),
      30_000,
    );
    // Every test reads the exporter's series: wait for two scrapes (a rate needs two samples).
    await waitFor(
      'two scrapes',
      async () => {
        const url = `${base}/api/v1/query?query=${encodeURIComponent('count(rate(demo_queue_depth[1m]))')}`;
        const reply = (await (await fetch(url)).json()) as {
          data: { result: { value: [number, string] }[] };
        };
        return reply.data.result[0]?.value[1] === '3';
      },
      30_000,
    );
    ({ browser, page } = await openRecordingPage(requested));
    await mkdir(SCREENSHOTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await new Promise<void>((resolve) => (exporter ? exporter.close(() => resolve()) : resolve()));
    await rm(dir, { recursive: true, force: true });
  });

  const shot = (target: Page, name: string) =>
    target.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  /** The legend's series rows (its first row is the time under the cursor). */
  const legendSeries = (target: Page) =>
    target.locator('.chart .u-legend tr.u-series:not(:first-child)');
  const tableRows = (target: Page) => target.locator('table.result-table tbody tr');

  it('opens a rule alert’s source link on the graph page, one line per series of its expression', async () => {
    await page.goto(`${base}/#/alerts`);
    const alert = page.locator('li.alert', { hasText: 'orders' });
    await alert.waitFor(SLOW);
    const link = alert.getByRole('link', { name: 'source' });
    await expect(link.getAttribute('href')).resolves.toBe(
      `${base}/graph?g0.expr=demo_queue_depth+%3E+5&g0.tab=1`,
    );
    const [graph] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    graph.on('request', (r) => requested.push(r.url()));
    // The link's tab: the table of the instant query.
    await graph.getByRole('tab', { name: 'Table', selected: true }).waitFor(SLOW);
    await tableRows(graph).nth(1).waitFor(SLOW);
    await expect(tableRows(graph).count()).resolves.toBe(2);

    await graph.getByRole('tab', { name: 'Graph' }).click();
    await graph.getByLabel('Range', { exact: true }).fill('1m');
    await graph.getByLabel('Range', { exact: true }).press('Enter');
    await waitFor('the range in the URL', () => graph.url().includes('g0.range_input=1m'));
    await legendSeries(graph).nth(1).waitFor(SLOW);
    const names = await legendSeries(graph).locator('.u-label').allTextContents();
    expect(names).toHaveLength(2);
    expect(names.join('\n')).toMatch(/queue="orders"/);
    expect(names.join('\n')).toMatch(/queue="mail"/);
    expect(graph.url()).toContain('g0.tab=0');
    expect(graph.url()).toContain('g0.expr=demo_queue_depth%20%3E%205');

    // The legend shows the values under the cursor: the newest samples at the right edge.
    const plot = await graph.locator('.chart .u-over').boundingBox();
    if (!plot) throw new Error('no plot area');
    await graph.mouse.move(plot.x + plot.width - 3, plot.y + plot.height / 2);
    await waitFor('the hovered values', async () => {
      const values = await legendSeries(graph).locator('.u-value').allTextContents();
      return values.sort().join(',') === '12,7';
    });
    await shot(graph, 'graph-from-alert');
    await graph.close();
  });

  it('lists every series with its labels and value on the table tab', async () => {
    await page.goto(`${base}/graph?g0.expr=demo_queue_depth&g0.tab=1`);
    await tableRows(page).nth(2).waitFor(SLOW);
    const rows = await tableRows(page).evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
    );
    expect(rows.every(([name]) => name.startsWith('demo_queue_depth{'))).toBe(true);
    const byQueue = Object.fromEntries(
      rows.map(([name, value]) => [/queue="(\w+)"/.exec(name)?.[1], Number(value)]),
    );
    expect(byQueue).toEqual(QUEUES);
    await expect(page.locator('.panel-stats').textContent()).resolves.toContain('Result series: 3');
    await shot(page, 'graph-table');
  });

  it('shows a query’s error in its panel, and the warnings and notes of another', async () => {
    const expressions = [
      'sum(demo_queue_depth',
      'quantile(2, demo_queue_depth)',
      'rate(demo_queue_depth[1m])',
    ];
    await page.goto(
      `${base}/graph?${expressions.map((e, i) => `g${i}.expr=${encodeURIComponent(e)}&g${i}.tab=1`).join('&')}`,
    );
    const [broken, warned, noted] = [0, 1, 2].map((i) => page.locator('.graph-panel').nth(i));
    const error = broken.getByRole('alert');
    await error.waitFor(SLOW);
    await expect(error.textContent()).resolves.toMatch(/^Error executing query: .*parse error/);
    await expect(broken.locator('table.result-table').count()).resolves.toBe(0);
    // Warnings and infos come with a result, which is shown too.
    const warning = warned.locator('.query-warnings li');
    await warning.waitFor(SLOW);
    await expect(warning.textContent()).resolves.toMatch(
      /^PromQL warning: quantile value should be between 0 and 1/,
    );
    await warned.locator('table.result-table').waitFor();
    const note = noted.locator('.query-infos li');
    await note.waitFor(SLOW);
    await expect(note.textContent()).resolves.toMatch(
      /^PromQL info: metric might not be a counter/,
    );
    await shot(page, 'graph-error');
  });

  it('completes a metric name in the editor, and Enter runs the expression', async () => {
    await page.goto(`${base}/graph`);
    const editor = page.getByRole('textbox', { name: 'Expression of panel 1' });
    await editor.click(SLOW);
    await page.keyboard.type('demo_que');
    const option = page.locator('.cm-tooltip-autocomplete li', { hasText: 'demo_queue_depth' });
    await option.first().waitFor(SLOW);
    await shot(page, 'graph-completion');
    await page.keyboard.press('Enter');
    await expect(editor.textContent()).resolves.toBe('demo_queue_depth');
    await page.keyboard.press('Enter');
    await tableRows(page).nth(2).waitFor(SLOW);
    expect(page.url()).toContain('g0.expr=demo_queue_depth&');
  });

  it('reads several panels from the URL, and writes added and removed panels back', async () => {
    await page.goto(
      `${base}/graph?g0.expr=demo_queue_depth&g0.tab=0&g0.range_input=30m&g0.stacked=1` +
        `&g0.step_input=5&g1.expr=vector(1)&g1.tab=1`,
    );
    const panels = page.locator('article.graph-panel');
    await panels.nth(1).waitFor(SLOW);
    const first = panels.nth(0);
    await expect(first.getByLabel('Range', { exact: true }).inputValue()).resolves.toBe('30m');
    await expect(first.getByLabel('Step (seconds)').inputValue()).resolves.toBe('5');
    await expect(first.getByLabel('Stacked').isChecked()).resolves.toBe(true);
    await legendSeries(page).nth(2).waitFor(SLOW);
    await expect(
      panels.nth(1).locator('table.result-table td').first().textContent(),
    ).resolves.toBe('{}');
    await shot(page, 'graph-panels');

    await page.getByRole('button', { name: 'Add panel' }).click();
    await panels.nth(2).waitFor();
    await waitFor('the added panel in the URL', () => page.url().includes('g2.expr=&g2.tab=1'));
    await first.getByRole('button', { name: 'Remove panel' }).click();
    await waitFor('the removed panel gone from the URL', () =>
      new URL(page.url()).search.startsWith('?g0.expr=vector(1)&g0.tab=1'),
    );
    await expect(panels.count()).resolves.toBe(2);
  });

  it('links each rule’s expression from the Rules page, and has Graph in the navigation', async () => {
    await page.goto(`${base}/#/rules`);
    const query = page.locator('li.rule', { hasText: 'QueueBacklog' }).locator('a.query-link');
    await query.waitFor(SLOW);
    await expect(query.getAttribute('href')).resolves.toBe(
      'graph?g0.expr=demo_queue_depth+%3E+5&g0.tab=1',
    );
    await query.click();
    await page.waitForURL((url) => url.pathname === `${PREFIX}/graph`);
    await tableRows(page).nth(1).waitFor(SLOW);
    const nav = page.getByRole('navigation', { name: 'pages' });
    await expect(
      nav.getByRole('link', { name: 'Graph' }).getAttribute('aria-current'),
    ).resolves.toBe('page');
    await nav.getByRole('link', { name: 'Silences' }).click();
    await page.getByRole('heading', { name: 'Silences' }).waitFor(SLOW);
    expect(page.url()).toBe(`${base}/#/silences`);
    await nav.getByRole('link', { name: 'Graph' }).click();
    await page.getByRole('heading', { name: 'Graph' }).waitFor(SLOW);
    expect(new URL(page.url()).pathname).toBe(`${PREFIX}/graph`);
  });

  it('draws the chart in the dark theme’s colours', async () => {
    await page.goto(`${base}/graph?g0.expr=demo_queue_depth&g0.tab=0&g0.range_input=5m`);
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    // The chart takes the theme's colours when drawn; the editor follows at once.
    await page.reload();
    await legendSeries(page).nth(2).waitFor(SLOW);
    await expect(page.locator('html').getAttribute('data-theme')).resolves.toBe('dark');
    await shot(page, 'graph-dark');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
  });

  it('loads the graph page’s code only when that page is opened, and nothing from elsewhere', async () => {
    const fresh = await browser.newPage();
    const loaded: string[] = [];
    fresh.on('request', (r) => loaded.push(new URL(r.url()).pathname));
    await fresh.goto(`${base}/#/alerts`);
    await fresh.getByRole('heading', { name: 'Alerts' }).waitFor(SLOW);
    const scripts = () => loaded.filter((path) => path.endsWith('.js'));
    expect(scripts()).toContain(`${PREFIX}/public/app.js`);
    expect(scripts().filter((path) => path.includes('/graph-'))).toEqual([]);
    await fresh.getByRole('link', { name: 'Graph' }).click();
    await fresh.getByRole('heading', { name: 'Graph' }).waitFor(SLOW);
    expect(scripts().some((path) => /\/public\/graph-[A-Z0-9]+\.js$/.test(path))).toBe(true);
    await fresh.close();
    expect(requested.filter((url) => !url.startsWith(`${base}/`))).toEqual([]);
  });
});
