// The graph page's panels as its URL carries them, in Prometheus's parameters (`g0.expr`,
// `g0.tab`, `g0.range_input`, `g0.show_exemplars`, ...), so a rule's `generatorURL` and a link copied from
// Prometheus open the same panels here.

/** Which tab a panel shows: an instant query as a table, or a range query as a graph. */
export type PanelTab = 'graph' | 'table';

/** One panel's settings; `null` means "not set": now for the end, the default step. */
export interface PanelOptions {
  expr: string;
  tab: PanelTab;
  rangeMs: number;
  endMs: number | null;
  stepSeconds: number | null;
  stacked: boolean;
  /** Whether the graph draws the exemplars of the range too: off unless asked, as in Prometheus. */
  showExemplars: boolean;
}

/** A panel nobody has set up yet; as in Prometheus, a new panel opens on its table. */
export const DEFAULT_PANEL: PanelOptions = {
  expr: '',
  tab: 'table',
  rangeMs: 3_600_000,
  endMs: null,
  stepSeconds: null,
  stacked: false,
  showExemplars: false,
};

const UNITS: [string, number][] = [
  ['y', 365 * 86_400_000],
  ['w', 7 * 86_400_000],
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1000],
  ['ms', 1],
];
const DURATION = /^(?:(\d+)y)?(?:(\d+)w)?(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?(?:(\d+)ms)?$/;

/** `1h30m` as milliseconds: Prometheus's duration units, whole numbers only; else undefined. */
export function parseRange(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '0') return 0;
  const match = trimmed === '' ? null : DURATION.exec(trimmed);
  if (!match) return undefined;
  return UNITS.reduce((total, [, size], i) => total + Number(match[i + 1] ?? 0) * size, 0);
}

/** Milliseconds as a duration; years and weeks only when exact, since `90d` reads better than `12w6d`. */
export function formatRange(ms: number): string {
  if (ms <= 0) return '0s';
  let rest = ms;
  let text = '';
  for (const [unit, size] of UNITS) {
    if ((unit === 'y' || unit === 'w') && rest % size !== 0) continue;
    const count = Math.floor(rest / size);
    if (count > 0) {
      text += `${count}${unit}`;
      rest -= count * size;
    }
  }
  return text;
}

const TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?Z?$/;

/** `2024-05-01 12:00:00` (UTC, as the URL writes it; a `T`, seconds and `Z` optional) as ms. */
export function parseTime(text: string): number | undefined {
  const match = TIME.exec(text.trim());
  if (!match) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', ms = '0'] = match;
  const value = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s, Number(ms.padEnd(3, '0')));
  return Number.isNaN(value) ? undefined : value;
}

/** A time as the URL writes it: `YYYY-MM-DD HH:mm:ss` in UTC. */
export function formatTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** The step of a range query when none is set: about 250 points over the range, at least 1 s. */
export function defaultStep(rangeMs: number): number {
  return Math.max(Math.floor(rangeMs / 250_000), 1);
}

/**
 * The panels of a query string. Panels are numbered from `g0` without gaps, and a panel exists
 * when its `expr` is there (even empty); parameters with an empty value are ignored, and a bad
 * value leaves that setting at its default, as Prometheus reads them.
 */
export function readPanels(search: string): PanelOptions[] {
  const params = new URLSearchParams(search);
  const panels: PanelOptions[] = [];
  for (let i = 0; params.has(`g${i}.expr`); i++) {
    const get = (name: string) => params.get(`g${i}.${name}`) || undefined;
    const panel = { ...DEFAULT_PANEL, expr: get('expr') ?? '' };
    const tab = get('tab');
    if (tab !== undefined) panel.tab = tab === '0' ? 'graph' : 'table';
    panel.stacked = get('stacked') === '1';
    panel.showExemplars = get('show_exemplars') === '1';
    panel.rangeMs = parseRange(get('range_input') ?? '') ?? panel.rangeMs;
    const end = get('end_input') ?? get('moment_input');
    panel.endMs = end === undefined ? null : (parseTime(end) ?? null);
    const step = Number.parseFloat(get('step_input') ?? '');
    panel.stepSeconds = step > 0 ? step : null;
    panels.push(panel);
  }
  return panels;
}

/** The query string of the panels, in the parameters and order Prometheus writes. */
export function writePanels(panels: PanelOptions[]): string {
  return panels
    .flatMap((panel, i) => {
      const param = (name: string, value: string | number) =>
        `g${i}.${name}=${encodeURIComponent(value)}`;
      const parts = [
        param('expr', panel.expr),
        param('tab', panel.tab === 'graph' ? 0 : 1),
        param('stacked', panel.stacked ? 1 : 0),
        param('show_exemplars', panel.showExemplars ? 1 : 0),
        param('range_input', formatRange(panel.rangeMs)),
      ];
      if (panel.endMs !== null) {
        const time = formatTime(panel.endMs);
        parts.push(param('end_input', time), param('moment_input', time));
      }
      if (panel.stepSeconds !== null) parts.push(param('step_input', panel.stepSeconds));
      return parts;
    })
    .join('&');
}
