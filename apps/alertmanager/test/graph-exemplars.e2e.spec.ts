import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWhen, httpAnswers, waitFor } from '@redisx/testing';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM, openRecordingPage } from './support/chromium-page';
import { writeScrapingRulesConfig } from './support/scraping-rules-config';
import { startServerProcess, type ServerProcess } from './support/server-process';

/** Screenshots for a reviewer; `alert-to-trace.png` is the README's (docs/alert-to-trace.png). */
const SCREENSHOTS = join(
  __dirname,
  '..',
  '..',
  '..',
  'test-output',
  'screenshots',
  'graph-exemplars',
);
const PREFIX = '/am';
/** Generous for slow machines: two scrapes, a rule evaluation and a browser's first paint. */
const SLOW = { timeout: 30_000 };
jest.setTimeout(60_000);

const METRIC = 'myapp_redis_command_duration_seconds';
/** The bundled HighRedisLatency's expression, over a 1m rate so that it fires within seconds. */
const LATENCY = `histogram_quantile(0.95, sum by (le) (rate(${METRIC}_bucket[1m])))`;
/** Two commands' traces: a fast one in the first bucket, the slow one the alert is about. */
const FAST = {
  traceId: '0af7651916cd43dd8448eb211c80319c',
  spanId: 'b7ad6b7169203331',
  value: 0.042,
};
const SLOW_TRACE = {
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  spanId: '00f067aa0ba902b7',
  value: 0.42,
};
/** When both happened: the exporter's start, so each is stored once however often it is scraped. */
const HAPPENED = Math.floor(Date.now() / 1000);

/**
 * An OpenMetrics histogram whose counts grow with every scrape (so its rate, and the 95th
 * percentile of about 0.48 s, exist after two), its first two buckets each carrying a trace.
 */
function exposition(scrape: number): string {
  const exemplar = (e: typeof FAST) =>
    `# {trace_id="${e.traceId}",span_id="${e.spanId}"} ${e.value} ${HAPPENED}`;
  return [
    `# HELP ${METRIC} Duration of Redis commands.`,
    `# TYPE ${METRIC} histogram`,
    `${METRIC}_bucket{le="0.1"} ${2 * scrape} ${exemplar(FAST)}`,
    `${METRIC}_bucket{le="0.5"} ${10 * scrape} ${exemplar(SLOW_TRACE)}`,
    `${METRIC}_bucket{le="+Inf"} ${10 * scrape}`,
    `${METRIC}_sum ${3 * scrape}`,
    `${METRIC}_count ${10 * scrape}`,
    '# EOF',
    '',
  ].join('\n');
}

const describeWithChromium = describeWhen(
  !!CHROMIUM,
  'graph exemplars end-to-end skipped: no chromium installed (apt-get install chromium)',
);

/**
 * From an alert to the trace behind it in the web UI: a loopback app exposes a latency histogram
 * with exemplars as OpenMetrics, two servers scrape it and fire a HighRedisLatency-like rule, one
 * with `--web.trace-url` pointing at a loopback stand-in for a tracing UI, one without. The graph
 * page draws the exemplars and the Alerts page names the traces, as links only with the flag.
 */
describeWithChromium('exemplars and trace links in the web UI', () => {
  let dir: string;
  let exporter: Server;
  let tracing: Server;
  let traceUrl: string;
  let linked: ServerProcess;
  let unlinked: ServerProcess;
  let browser: Browser;
  let page: Page;
  /** Every address the pages asked for. */
  const requested: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-exemplars-'));
    let scrapes = 0;
    exporter = createServer((_req, res) => {
      scrapes += 1;
      res
        .writeHead(200, { 'content-type': 'application/openmetrics-text; version=1.0.0' })
        .end(exposition(scrapes));
    });
    // The tracing UI's stand-in: a page naming the trace it was asked for.
    tracing = createServer((req, res) => {
      const id = /^\/trace\/([0-9a-f]+)$/.exec(req.url ?? '')?.[1] ?? 'unknown';
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<h1>Trace ${id}</h1>`);
    });
    for (const server of [exporter, tracing]) {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    }
    const port = (server: Server) => (server.address() as AddressInfo).port;
    traceUrl = `http://127.0.0.1:${port(tracing)}/trace/`;
    const description =
      '95% of Redis commands took less than {{ $value | humanizeDuration }}.' +
      `{{ with exemplars "${METRIC}_bucket" }}{{ with first . }} Slowest recent command: ` +
      '{{ .Value | humanizeDuration }}, trace {{ .Labels.trace_id }}.{{ end }}{{ end }}';
    const config = await writeScrapingRulesConfig(
      dir,
      'app',
      `127.0.0.1:${port(exporter)}`,
      `groups:\n  - name: redis\n    rules:\n      - alert: HighRedisLatency\n` +
        `        expr: ${LATENCY} > 0.05\n        labels: {severity: warning}\n` +
        `        annotations: {summary: Redis commands are slow, description: ${JSON.stringify(description)}}\n`,
    );
    const start = (extra: string[]) =>
      startServerProcess(
        config.alertmanager,
        [`--web.route-prefix=${PREFIX}`, `--rules.config.file=${config.prometheus}`, ...extra],
        undefined,
        { scheme: 'http', ready: (url) => httpAnswers(`${url}${PREFIX}/-/healthy`) },
      );
    [linked, unlinked] = await Promise.all([
      // Spaces inside the braces are optional, as the flag reads them.
      start([`--web.trace-url=${traceUrl}{{.TraceID}}`]),
      start([]),
    ]);
    for (const server of [linked, unlinked]) {
      await waitFor(
        'HighRedisLatency firing',
        async () => {
          const alerts = (await (
            await fetch(`${server.url}${PREFIX}/api/v2/alerts?filter=alertname%3DHighRedisLatency`)
          ).json()) as unknown[];
          return alerts.length === 1;
        },
        30_000,
      );
    }
    ({ browser, page } = await openRecordingPage(requested));
    await mkdir(SCREENSHOTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([linked?.stop(), unlinked?.stop()]);
    for (const server of [exporter, tracing]) {
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    }
    await rm(dir, { recursive: true, force: true });
  });

  const shot = (target: Page, name: string) =>
    target.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  const graphOf = (server: ServerProcess, extra = '') =>
    `${server.url}${PREFIX}/graph?g0.expr=${encodeURIComponent(LATENCY)}&g0.tab=0&g0.range_input=5m${extra}`;
  const markers = (target: Page) => target.locator('.chart .exemplar');
  const exemplarRequests = () => requested.filter((url) => url.includes('/api/v1/query_exemplars'));
  /** The page the tracing UI's stand-in opens for a link, in the tab the link opened. */
  const opened = async (link: ReturnType<Page['locator']>) => {
    const [tab] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await tab.getByRole('heading').waitFor(SLOW);
    const result = { url: tab.url(), heading: await tab.getByRole('heading').textContent() };
    await tab.close();
    return result;
  };

  it('draws each exemplar of the range on the graph as a link to its trace, its labels on hover', async () => {
    await page.goto(graphOf(linked, '&g0.show_exemplars=1'));
    await markers(page).nth(1).waitFor(SLOW);
    await expect(markers(page).count()).resolves.toBe(2);
    // Both are drawn, the fast one far below the line too: the value axis reaches it.
    const links = page.locator('.chart a.exemplar');
    const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs.sort()).toEqual([FAST, SLOW_TRACE].map((e) => `${traceUrl}${e.traceId}`).sort());
    // In the colour of the one line, whose labels (none) agree with both series.
    const colours = await links.evaluateAll((as) =>
      as.map((a) => a.ownerDocument.defaultView?.getComputedStyle(a).color),
    );
    expect(colours).toEqual(['rgb(59, 130, 246)', 'rgb(59, 130, 246)']);

    const slow = page.getByRole('link', {
      name: `exemplar trace ${SLOW_TRACE.traceId}, value 0.42`,
    });
    const tip = slow.locator('.exemplar-tip');
    await expect(tip.isVisible()).resolves.toBe(false);
    await slow.hover();
    await tip.waitFor({ state: 'visible' });
    const lines = await tip.locator(':scope > span').allTextContents();
    expect(lines[0]).toMatch(new RegExp(`^${METRIC}_bucket\\{.*le="0\\.5"`));
    // The exemplar's own labels as the API orders them, by name.
    expect(lines.slice(1)).toEqual([
      `span_id="${SLOW_TRACE.spanId}"`,
      `trace_id="${SLOW_TRACE.traceId}"`,
      'Value: 0.42',
      `Time: ${new Date(HAPPENED * 1000).toISOString().slice(0, 19).replace('T', ' ')} UTC`,
      'Open the trace ↗',
    ]);
    await shot(page, 'graph-exemplars');
    await expect(opened(slow)).resolves.toEqual({
      url: `${traceUrl}${SLOW_TRACE.traceId}`,
      heading: `Trace ${SLOW_TRACE.traceId}`,
    });
  });

  it('asks for exemplars only once “Show exemplars” is checked, and keeps the choice in the URL', async () => {
    const before = exemplarRequests().length;
    await page.goto(graphOf(linked));
    await page.locator('.chart .u-legend').waitFor(SLOW);
    const toggle = page.getByLabel('Show exemplars');
    await expect(toggle.isChecked()).resolves.toBe(false);
    await expect(markers(page).count()).resolves.toBe(0);
    expect(exemplarRequests()).toHaveLength(before);
    await toggle.check();
    await markers(page).nth(1).waitFor(SLOW);
    await waitFor('the toggle in the URL', () => page.url().includes('g0.show_exemplars=1'));
    expect(exemplarRequests()).toHaveLength(before + 1);
  });

  it('draws the graph without exemplars, and says why, when they cannot be read', async () => {
    const exemplarApi = (url: URL) => url.pathname.endsWith('/api/v1/query_exemplars');
    await page.route(exemplarApi, (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"status":"error","errorType":"unavailable","error":"exemplar store busy"}',
      }),
    );
    try {
      await page.goto(graphOf(linked, '&g0.show_exemplars=1'));
      await page.locator('.chart .u-legend').waitFor(SLOW);
      await expect(page.locator('.exemplars-note').textContent()).resolves.toBe(
        'Exemplars not shown: exemplar store busy',
      );
      await expect(markers(page).count()).resolves.toBe(0);
      await expect(page.getByRole('alert').count()).resolves.toBe(0);
    } finally {
      await page.unroute(exemplarApi);
    }
  });

  it('links a firing rule alert to the traces of its slowest exemplars', async () => {
    await page.goto(`${linked.url}${PREFIX}/#/alerts`);
    const alert = page.locator('li.alert', { hasText: 'HighRedisLatency' });
    const traces = alert.getByRole('group', { name: 'traces' }).getByRole('link');
    await traces.nth(1).waitFor(SLOW);
    // The slowest first, each named by the start of its id.
    await expect(traces.allTextContents()).resolves.toEqual([
      `trace ${SLOW_TRACE.traceId.slice(0, 8)}`,
      `trace ${FAST.traceId.slice(0, 8)}`,
    ]);
    const hrefs = await traces.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual([`${traceUrl}${SLOW_TRACE.traceId}`, `${traceUrl}${FAST.traceId}`]);
    // The rule's own description names the same slowest trace.
    await expect(alert.locator('.annotations').textContent()).resolves.toContain(
      `trace ${SLOW_TRACE.traceId}`,
    );
    // The README's picture (docs/alert-to-trace.png): the alert and its links, no blank page below.
    await page.setViewportSize({ width: 1200, height: 440 });
    await page.screenshot({ path: join(SCREENSHOTS, 'alert-to-trace.png') });
    await page.setViewportSize({ width: 1200, height: 900 });
    await expect(opened(traces.first())).resolves.toEqual({
      url: `${traceUrl}${SLOW_TRACE.traceId}`,
      heading: `Trace ${SLOW_TRACE.traceId}`,
    });
  });

  it('shows the exemplars without links when --web.trace-url is not set, and no trace on the alert', async () => {
    await page.goto(graphOf(unlinked, '&g0.show_exemplars=1'));
    await markers(page).nth(1).waitFor(SLOW);
    await expect(page.locator('.chart a').count()).resolves.toBe(0);
    const slow = page.getByRole('img', {
      name: `exemplar trace ${SLOW_TRACE.traceId}, value 0.42`,
    });
    await slow.focus();
    await slow.locator('.exemplar-tip').waitFor({ state: 'visible' });
    const tip = await slow.locator('.exemplar-tip').textContent();
    expect(tip).toContain(`trace_id="${SLOW_TRACE.traceId}"`);
    expect(tip).not.toContain('Open the trace');
    await shot(page, 'graph-exemplars-unlinked');

    const flags = page.waitForResponse((r) => r.url().endsWith('/api/v1/status/flags'));
    const before = exemplarRequests().length;
    await page.goto(`${unlinked.url}${PREFIX}/#/alerts`);
    const alert = page.locator('li.alert', { hasText: 'HighRedisLatency' });
    await alert.waitFor(SLOW);
    await expect((await flags).json()).resolves.toMatchObject({ data: { 'web.trace-url': '' } });
    // A moment after the flags' answer: still no link, and nothing asked about exemplars.
    await page.waitForTimeout(1000);
    await expect(alert.locator('a').allTextContents()).resolves.toEqual(['source', 'Silence']);
    expect(exemplarRequests()).toHaveLength(before);
  });

  it('asks nothing of any other host', () => {
    expect(
      requested.filter(
        (url) =>
          !url.startsWith(`${linked.url}/`) &&
          !url.startsWith(`${unlinked.url}/`) &&
          !url.startsWith(traceUrl),
      ),
    ).toEqual([]);
  });
});
