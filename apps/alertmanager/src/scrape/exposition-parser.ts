import { Labels } from '../tsdb/labels';
import type { MetadataSink, MetricType } from './metadata-cache';
import { parseFloatGo } from './go-parse-float';
import { exemplarAfterHash } from './openmetrics-exemplar';
import type { ScrapedSample } from './scrape-loop';

/** The `Accept` header Prometheus 2.42 scrapes with: OpenMetrics first, then the text format. */
export const SCRAPE_ACCEPT_HEADER =
  'application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1';

/** A scrape body that does not parse: the line and what is wrong with it. */
export class ExpositionError extends Error {}

const METRIC_TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const OPENMETRICS_TYPES = new Set([
  'counter',
  'gauge',
  'histogram',
  'gaugehistogram',
  'summary',
  'info',
  'stateset',
  'unknown',
]);
/**
 * The samples of a scrape body, by its content type as upstream's `textparse.New` chooses:
 * `application/openmetrics-text` is OpenMetrics (timestamps in seconds, `# EOF` required,
 * exemplars read), anything else Prometheus's text format 0.0.4 (timestamps in
 * milliseconds). Throws {@link ExpositionError} naming the line. `metadata` is given each
 * `# TYPE`, `# HELP` and (OpenMetrics) `# UNIT` line as it is read.
 */
export function scrapedSamples(
  body: string | Uint8Array,
  contentType: string,
  metadata?: MetadataSink,
  known?: (series: string) => boolean,
): Iterable<ScrapedSample> {
  const mediaType = contentType.split(';')[0].trim().toLowerCase();
  return readExposition(body, mediaType === 'application/openmetrics-text', metadata, known);
}

/** Parses the text format, or OpenMetrics with `openMetrics`: every sample, at once. */
export function parseExposition(
  body: string | Uint8Array,
  openMetrics: boolean,
  metadata?: MetadataSink,
  known?: (series: string) => boolean,
): ScrapedSample[] {
  return [...readExposition(body, openMetrics, metadata, known)];
}

/**
 * Reads the text format, or OpenMetrics with `openMetrics`, yielding each sample as its line is
 * read (a scrape handles one before the next is parsed, so what parsing it made dies young);
 * throws when a line does not parse, or when OpenMetrics ends without `# EOF`. A body given as
 * bytes is decoded a piece at a time (see `lines`).
 */
export function* readExposition(
  body: string | Uint8Array,
  openMetrics: boolean,
  metadata?: MetadataSink,
  known?: (series: string) => boolean,
): Generator<ScrapedSample, void, undefined> {
  const format = openMetrics ? 'OpenMetrics' : 'text format';
  let lineNumber = 0;
  let eof = false;
  for (const line of lines(body)) {
    lineNumber++;
    const fail = (reason: string): never => {
      throw new ExpositionError(`${format} parsing error in line ${lineNumber}: ${reason}`);
    };
    if (eof) fail('unexpected data after # EOF');
    if (openMetrics) {
      if (line === '# EOF') {
        eof = true;
        continue;
      }
      if (line === '') fail('unexpected empty line');
    } else if (line.trim() === '') {
      continue;
    }
    const text = openMetrics ? line : line.replace(/^[ \t]+/, '');
    if (text.startsWith('#')) {
      readComment(text, openMetrics, fail, metadata);
      continue;
    }
    yield readSample(text, openMetrics, fail, known);
  }
  if (openMetrics && !eof) {
    throw new ExpositionError('OpenMetrics parsing error: data does not end with # EOF');
  }
}

/** Bytes of a body decoded at once, at most (more when one line is longer). */
const PIECE_BYTES = 64 * 1024;

/**
 * A body's lines, without their `\n`. Bytes are decoded in pieces of about {@link PIECE_BYTES}
 * cut after a newline (which no UTF-8 sequence holds): a scrape body of a megabyte would be one
 * string in V8's large-object space, garbage that only a full collection frees, where the pieces
 * die young.
 */
function* lines(body: string | Uint8Array): Generator<string, void, undefined> {
  if (typeof body === 'string') {
    yield* linesOf(body);
    return;
  }
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  for (let start = 0; start < bytes.length;) {
    let cut =
      start + PIECE_BYTES >= bytes.length
        ? bytes.length - 1
        : bytes.lastIndexOf(0x0a, start + PIECE_BYTES - 1);
    if (cut < start) cut = bytes.indexOf(0x0a, start + PIECE_BYTES);
    if (cut < 0) cut = bytes.length - 1;
    yield* linesOf(bytes.toString('utf8', start, cut + 1));
    start = cut + 1;
  }
}

function* linesOf(text: string): Generator<string, void, undefined> {
  let pos = 0;
  while (pos < text.length) {
    let end = text.indexOf('\n', pos);
    if (end === -1) end = text.length;
    yield text.slice(pos, end);
    pos = end + 1;
  }
}

function readComment(
  line: string,
  openMetrics: boolean,
  fail: (reason: string) => never,
  metadata: MetadataSink | undefined,
): void {
  const match = /^#[ \t]+(HELP|TYPE|UNIT)[ \t]+([^ \t]+)(?:[ \t](.*))?$/s.exec(line);
  if (!match) {
    if (openMetrics) fail(`invalid comment ${JSON.stringify(line)}`);
    return;
  }
  const [, keyword, name, rest] = match;
  // The text format has no units: upstream's lexer takes `# UNIT` as a comment.
  if (keyword === 'UNIT' && !openMetrics) return;
  if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(name)) fail(`invalid metric name ${JSON.stringify(name)}`);
  // Upstream's lexers take the text after one blank, untrimmed; in the text format, blanks alone
  // are no text, and OpenMetrics wants that blank.
  if (openMetrics && rest === undefined) fail(`expected text in ${keyword}`);
  const text = rest === undefined || (!openMetrics && /^[ \t]*$/.test(rest)) ? '' : rest;
  if (keyword === 'TYPE') {
    if (!(openMetrics ? OPENMETRICS_TYPES : METRIC_TYPES).has(text)) {
      fail(`invalid metric type ${JSON.stringify(text)}`);
    }
    metadata?.setType(name, text === 'untyped' ? 'unknown' : (text as MetricType));
  } else if (keyword === 'HELP') {
    metadata?.setHelp(name, text.includes('\\') ? unescapeHelp(text, openMetrics) : text);
  } else {
    if (text !== '' && !name.endsWith(`_${text}`))
      fail(`unit not a suffix of metric ${JSON.stringify(name)}`);
    metadata?.setUnit(name, text);
  }
}

/** A help text's escapes: `\\` and `\n`, and in OpenMetrics `\"`; any other stays as written. */
function unescapeHelp(text: string, openMetrics: boolean): string {
  return text.replace(openMetrics ? /\\([\\n"])/g : /\\([\\n])/g, (_, c: string) =>
    c === 'n' ? '\n' : c,
  );
}

/**
 * One sample line. A series `known` (by its text, as an earlier scrape read it whole) has its
 * label block passed over, not read: its labels are `Labels.EMPTY`, and the caller has them.
 */
function readSample(
  line: string,
  openMetrics: boolean,
  fail: (reason: string) => never,
  known?: (series: string) => boolean,
): ScrapedSample {
  let i = 0;
  while (i < line.length && isNameChar(line.charCodeAt(i), i === 0)) i++;
  if (i === 0) fail(`${JSON.stringify(line[0])} is not a valid start token`);
  const pairs: [string, string][] = [['__name__', line.slice(0, i)]];
  let labels: Labels | undefined;
  // Blanks may stand between the name and its labels.
  let j = i;
  while (line[j] === ' ' || line[j] === '\t') j++;
  if (line[j] === '{') {
    const end = known === undefined ? -1 : labelBlockEnd(line, j + 1);
    if (end > 0 && known?.(line.slice(0, end))) {
      i = end;
      labels = Labels.EMPTY;
    } else {
      i = readLabels(line, j + 1, pairs, fail);
    }
  } else if (known?.(line.slice(0, i))) {
    labels = Labels.EMPTY;
  }
  const rest = line.slice(i);
  if (!/^[ \t]/.test(rest))
    fail(`expected value after metric, got ${JSON.stringify(rest.slice(0, 20))}`);
  let fields = rest.trim().split(/[ \t]+/);
  let hash = -1;
  if (openMetrics) {
    // An exemplar follows ` # `, read once the value and timestamp are.
    hash = fields.indexOf('#');
    if (hash === 0) fail('strconv.ParseFloat: parsing "#": invalid syntax');
    if (hash !== -1) fields = fields.slice(0, hash);
  }
  if (fields.length === 0 || fields[0] === '') fail('expected value after metric');
  if (fields.length > 2) fail(`expected timestamp or new record, got ${JSON.stringify(fields[2])}`);
  const value = parseFloatGo(fields[0], fail);
  let timestampMs: number | undefined;
  if (fields.length === 2) {
    if (openMetrics) {
      timestampMs = Math.round(parseFloatGo(fields[1], fail) * 1000);
    } else {
      if (!/^-?\d+$/.test(fields[1]))
        fail(`strconv.ParseInt: parsing ${JSON.stringify(fields[1])}: invalid syntax`);
      timestampMs = Number(fields[1]);
    }
  }
  if (labels === undefined) {
    const seen = new Set<string>();
    for (const [name] of pairs) {
      if (seen.has(name)) fail(`label name ${JSON.stringify(name)} is not unique`);
      seen.add(name);
    }
    labels = Labels.from(pairs);
  }
  const series = line.slice(0, i);
  if (hash === -1) return { labels, series, value, timestampMs };
  const at = (/[ \t]#(?=[ \t]|$)/.exec(rest) as RegExpExecArray).index;
  const exemplar = exemplarAfterHash(pairs[0][1], hash, rest.slice(at), fail);
  return { labels, series, value, timestampMs, exemplar };
}

/**
 * The index after the `}` that closes a label block starting at `start` (quoted values and their
 * escapes passed over), or -1 when there is none: the block is then read in full, which says
 * what is wrong.
 */
function labelBlockEnd(line: string, start: number): number {
  let quoted = false;
  for (let i = start; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (quoted) {
      if (c === 0x5c) i++;
      else if (c === 0x22) quoted = false;
    } else if (c === 0x22) quoted = true;
    else if (c === 0x7d) return i + 1;
  }
  return -1;
}

/** Reads `name="value", ...}` from `start`; returns the index after the closing brace. */
function readLabels(
  line: string,
  start: number,
  pairs: [string, string][],
  fail: (reason: string) => never,
): number {
  let i = start;
  const skip = () => {
    while (line[i] === ' ' || line[i] === '\t') i++;
  };
  for (;;) {
    skip();
    if (line[i] === '}') return i + 1;
    const nameStart = i;
    while (i < line.length && isLabelChar(line.charCodeAt(i), i === nameStart)) i++;
    if (i === nameStart) fail(`expected label name, got ${JSON.stringify(line.slice(i, i + 10))}`);
    const name = line.slice(nameStart, i);
    skip();
    if (line[i] !== '=') fail(`expected equal, got ${JSON.stringify(line.slice(i, i + 10))}`);
    i++;
    skip();
    if (line[i] !== '"') fail(`expected label value, got ${JSON.stringify(line.slice(i, i + 10))}`);
    i++;
    let value = '';
    let from = i;
    for (;;) {
      if (i >= line.length) fail('unterminated label value');
      const c = line[i];
      if (c === '"') break;
      if (c === '\\') {
        value += line.slice(from, i);
        const next = line[i + 1];
        // The text format's three escapes; any other backslash stays as written.
        value +=
          next === 'n' ? '\n' : next === '"' ? '"' : next === '\\' ? '\\' : `\\${next ?? ''}`;
        i += 2;
        from = i;
        continue;
      }
      i++;
    }
    value += line.slice(from, i);
    i++;
    pairs.push([name, value]);
    skip();
    if (line[i] === ',') {
      i++;
      continue;
    }
    if (line[i] !== '}')
      fail(`expected comma or "}", got ${JSON.stringify(line.slice(i, i + 10))}`);
  }
}

function isNameChar(c: number, first: boolean): boolean {
  return (
    (c >= 97 && c <= 122) ||
    (c >= 65 && c <= 90) ||
    c === 95 ||
    c === 58 ||
    (!first && c >= 48 && c <= 57)
  );
}

function isLabelChar(c: number, first: boolean): boolean {
  return (
    (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || (!first && c >= 48 && c <= 57)
  );
}
