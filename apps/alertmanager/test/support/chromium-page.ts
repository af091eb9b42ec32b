import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium, which the web UI's specs drive; undefined where it is not installed. */
export const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) =>
  existsSync(p),
);

/**
 * Headless Chromium with one desktop-sized page that records every address it asks for into
 * `requested` (the specs check that the UI asks only its own server).
 */
export async function openRecordingPage(
  requested: string[],
): Promise<{ browser: Browser; page: Page }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.on('request', (r) => requested.push(r.url()));
  return { browser, page };
}
