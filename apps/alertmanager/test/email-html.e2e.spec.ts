import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import { chromium, type Browser } from 'playwright-core';
import { loadTemplates } from '../src/template/load-templates';
import { caseData } from '../src/template/testing/case-data';
import type { TemplateDataJson } from '../src/template/template-data-json';
import { RECORDING_FILE, type Recording } from './support/upstream-recording';
import { describeWhen } from '@redisx/testing';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

/** Screenshots of the rendered mails, for a reviewer; kept out of the repository. */
const SCREENSHOTS = join(__dirname, '..', '..', '..', 'test-output', 'screenshots');
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));

/** Upstream's template data of the recorded scenario's firing and resolved notifications. */
function scenario(kind: 'firing' | 'resolved'): TemplateDataJson {
  const recording = JSON.parse(readFileSync(RECORDING_FILE, 'utf8')) as Recording;
  return recording.http['/webhook'][kind === 'firing' ? 0 : 1] as TemplateDataJson;
}

async function renderHtml(kind: 'firing' | 'resolved'): Promise<string> {
  const set = await loadTemplates([]);
  return set.render('{{ template "email.default.html" . }}', caseData(`@${kind}`), {
    now: Date.UTC(2024, 0, 1, 1),
    mode: 'html',
  });
}

function* elements(node: Node): Generator<Element> {
  if ('tagName' in node) yield node;
  if ('childNodes' in node) for (const child of node.childNodes) yield* elements(child);
}

function textOf(node: Node): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value;
  return 'childNodes' in node ? node.childNodes.map(textOf).join('') : '';
}

const attr = (e: Element, name: string) => e.attrs.find((a) => a.name === name)?.value;

/**
 * The HTML part of the default email: well-formed for an HTML parser (no parse errors), and
 * showing for every alert what upstream's shows (status, labels, annotations, the generator
 * link, the link to the receiver's alerts in Alertmanager, the external URL; upstream's mail has
 * no per-alert silence link, and neither has ours). Rendered in headless Chromium where it is installed,
 * with a screenshot of each kept under `test-output/screenshots/`.
 */
describe.each(['firing', 'resolved'] as const)('the default HTML email, %s', (kind) => {
  let html: string;
  let data: TemplateDataJson;
  beforeAll(async () => {
    html = await renderHtml(kind);
    data = scenario(kind);
  });

  it('parses without a single HTML error', () => {
    const errors: string[] = [];
    parse(html, { onParseError: (e) => errors.push(`${e.code} at ${e.startLine}:${e.startCol}`) });
    expect(errors).toEqual([]);
  });

  it('shows every alert with its status, labels, annotations and links', () => {
    const document = parse(html);
    const text = textOf(document).replace(/\s+/g, ' ');
    const links = [...elements(document)]
      .filter((e) => e.tagName === 'a')
      .map((e) => attr(e, 'href'));
    expect(links).toContain(data.externalURL);
    for (const alert of data.alerts) {
      for (const [name, value] of Object.entries(alert.labels))
        expect(text).toContain(`${name} = ${value}`);
      for (const [name, value] of Object.entries(alert.annotations))
        expect(text).toContain(`${name} = ${value}`);
      expect(links).toContain(alert.generatorURL);
    }
    expect(text.toLowerCase()).toContain(kind);
    // Upstream's "View in Alertmanager": the receiver's alerts, where they are silenced from.
    expect(links).toContain(
      `${data.externalURL}/#/alerts?receiver=${encodeURIComponent(data.receiver)}`,
    );
  });
});

const describeWithChromium = describeWhen(
  !!CHROMIUM,
  'email rendering in Chromium skipped: no chromium installed (apt-get install chromium)',
);

describeWithChromium('the default HTML email in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    await mkdir(SCREENSHOTS, { recursive: true });
  }, 30_000);
  afterAll(() => browser?.close());

  it.each(['firing', 'resolved'] as const)(
    'renders the %s mail with no request leaving the page',
    async (kind) => {
      const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      await page.setContent(await renderHtml(kind));
      const shown = await page.evaluate(() => document.body.innerText);
      for (const alert of scenario(kind).alerts) {
        expect(shown).toContain(alert.labels['alertname']);
      }
      const file = join(SCREENSHOTS, `email-default-${kind}.png`);
      await page.screenshot({ path: file, fullPage: true });
      expect(existsSync(file)).toBe(true);
      expect(requests.filter((u) => !u.startsWith('data:') && u !== 'about:blank')).toEqual([]);
      await page.close();
    },
  );
});
