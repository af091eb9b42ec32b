/** One generated request: method, path with query, headers and raw body bytes. */
export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/** A small seeded generator (mulberry32), so a failing run can be replayed from its seed. */
export class Random {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(max: number): number {
    return Math.floor(this.next() * max);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
}

/** Values that have broken parsers and matchers: catastrophic regexes, odd text, odd types. */
const NASTY_STRINGS = [
  '',
  '(a+)+$',
  '(a|aa)+$',
  '(.*a){20}',
  '((((((((((a))))))))))*b',
  '\\1',
  '(?=a)',
  '[',
  '(',
  '*',
  'a{1001}',
  `${'a'.repeat(40)}!`,
  '\u0000',
  '\ud800',
  'é\u202e\ufeff',
  '2027-02-30T00:00:00Z',
  '1970-01-01T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999999999Z',
  'not-a-date',
  'http://',
  '::bad',
  '{{ template "x" . }}',
  'x'.repeat(5000),
];
const NASTY_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1e308,
  [],
  {},
  [[[[]]]],
  { a: { b: { c: {} } } },
  ...NASTY_STRINGS,
];
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  '',
  'application/json;;',
  'application/x-www-form-urlencoded',
  'Application/JSON',
  '/',
];

function nastyMap(random: Random): unknown {
  if (random.next() < 0.2) return random.pick(NASTY_VALUES);
  const map: Record<string, unknown> = {};
  const n = random.int(4);
  for (let i = 0; i < n; i++) {
    const key = random.next() < 0.3 ? random.pick(NASTY_STRINGS) : `l${random.int(5)}`;
    map[key] = random.next() < 0.7 ? random.pick(NASTY_STRINGS) : random.pick(NASTY_VALUES);
  }
  return map;
}

/** Label names a route, silence or inhibit rule of the fuzzing configuration matches on. */
const labelName = (random: Random) => `l${random.int(5)}`;

/** A well-typed alert whose label values are hostile strings: what matchers must survive. */
function typedAlert(random: Random): unknown {
  const labels: Record<string, string> = { alertname: 'Fuzz' };
  for (let i = 0; i < 1 + random.int(4); i++)
    labels[labelName(random)] = random.pick(NASTY_STRINGS);
  return { labels, annotations: { summary: random.pick(NASTY_STRINGS) } };
}

function alertLike(random: Random): unknown {
  if (random.next() < 0.5) return typedAlert(random);
  const alert: Record<string, unknown> = { labels: nastyMap(random) };
  if (random.next() < 0.5) alert['annotations'] = nastyMap(random);
  if (random.next() < 0.4) alert['startsAt'] = random.pick(NASTY_VALUES);
  if (random.next() < 0.4) alert['endsAt'] = random.pick(NASTY_VALUES);
  if (random.next() < 0.3) alert['generatorURL'] = random.pick(NASTY_VALUES);
  return alert;
}

function silenceLike(random: Random): unknown {
  if (random.next() < 0.5) {
    // Well-typed, with a hostile regex: accepted, and then matched against every alert.
    return {
      matchers: [{ name: labelName(random), value: random.pick(NASTY_STRINGS), isRegex: true }],
      startsAt: new Date().toISOString(),
      endsAt: new Date(Date.now() + 3_600_000).toISOString(),
      createdBy: 'fuzz',
      comment: 'fuzz',
    };
  }
  const matcher = () => ({
    name: random.next() < 0.7 ? `l${random.int(5)}` : random.pick(NASTY_VALUES),
    value: random.pick(NASTY_VALUES),
    isRegex: random.next() < 0.6 ? true : random.pick(NASTY_VALUES),
    isEqual: random.next() < 0.8 ? random.next() < 0.5 : random.pick(NASTY_VALUES),
  });
  const silence: Record<string, unknown> = {
    matchers: random.next() < 0.9 ? Array.from({ length: random.int(3) }, matcher) : 'x',
    startsAt: random.next() < 0.6 ? new Date().toISOString() : random.pick(NASTY_VALUES),
    endsAt:
      random.next() < 0.6
        ? new Date(Date.now() + 3_600_000).toISOString()
        : random.pick(NASTY_VALUES),
    createdBy: random.pick(NASTY_VALUES),
    comment: random.pick(NASTY_VALUES),
  };
  if (random.next() < 0.3) silence['id'] = random.pick(NASTY_VALUES);
  return silence;
}

/** Breaks well-formed JSON text: cuts it, flips bytes, inserts tokens, nests it deeply. */
function mangle(random: Random, text: string): Buffer {
  const bytes = Buffer.from(text);
  switch (random.int(6)) {
    case 0:
      return bytes.subarray(0, random.int(bytes.length + 1));
    case 1: {
      const copy = Buffer.from(bytes);
      for (let i = 0; i < 1 + random.int(4); i++) copy[random.int(copy.length)] = random.int(256);
      return copy;
    }
    case 2: {
      const at = random.int(bytes.length + 1);
      const token = random.pick(['{', '}', '[', ']', ',', ':', '"', '\\', 'null', '\u0000', 'é']);
      return Buffer.concat([bytes.subarray(0, at), Buffer.from(token), bytes.subarray(at)]);
    }
    case 3: {
      const depth = 1 + random.int(20_000);
      return Buffer.from(
        `${'['.repeat(depth)}${text}${random.next() < 0.5 ? ']'.repeat(depth) : ''}`,
      );
    }
    case 4:
      return Buffer.from(`${text}${random.pick([' trailing', '}', ']]', '\n\n'])}`);
    default:
      return bytes;
  }
}

function jsonBody(random: Random, value: unknown): Buffer {
  const text = JSON.stringify(value) ?? 'null';
  return random.next() < 0.5 ? mangle(random, text) : Buffer.from(text);
}

/** Percent-encodes the UTF-8 bytes of any string, lone surrogates included. */
function percentEncode(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value)) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9_.~-]/.test(c) ? c : `%${byte.toString(16).padStart(2, '0')}`;
  }
  return out;
}

function query(random: Random, names: readonly string[]): string {
  const parts: string[] = [];
  for (let i = 0; i < random.int(4); i++) {
    const value =
      random.next() < 0.5 ? random.pick(NASTY_STRINGS) : `l1=~"${random.pick(NASTY_STRINGS)}"`;
    parts.push(`${random.pick(names)}=${percentEncode(value)}`);
  }
  if (random.next() < 0.1) parts.push('%zz=%');
  return parts.length ? `?${parts.join('&')}` : '';
}

const ALERT_QUERY = [
  'filter',
  'receiver',
  'active',
  'silenced',
  'inhibited',
  'unprocessed',
  'muted',
];

/**
 * A malformed or hostile request to one of the server's endpoints: bodies that are broken JSON,
 * wrong types, catastrophic regexes, impossible dates, deep nesting or stray bytes; odd content
 * types; odd query strings and paths; unexpected methods.
 */
export function fuzzRequest(random: Random): FuzzRequest {
  const type = random.next() < 0.7 ? 'application/json' : random.pick(CONTENT_TYPES);
  const headers: Record<string, string> = type === '' ? {} : { 'Content-Type': type };
  switch (random.int(10)) {
    case 0:
    case 1: {
      const alerts = Array.from({ length: 1 + random.int(4) }, () => alertLike(random));
      const value = random.next() < 0.9 ? alerts : random.pick(NASTY_VALUES);
      return { method: 'POST', path: '/api/v2/alerts', headers, body: jsonBody(random, value) };
    }
    case 2: {
      const alerts = Array.from({ length: 1 + random.int(3) }, () => alertLike(random));
      return { method: 'POST', path: '/api/v1/alerts', headers, body: jsonBody(random, alerts) };
    }
    case 3:
    case 4:
      return {
        method: 'POST',
        path: '/api/v2/silences',
        headers,
        body: jsonBody(random, silenceLike(random)),
      };
    case 5:
      return {
        method: 'GET',
        path: `/api/v2/${random.pick(['alerts', 'alerts/groups'])}${query(random, ALERT_QUERY)}`,
        headers: {},
      };
    case 6:
      return { method: 'GET', path: `/api/v2/silences${query(random, ['filter'])}`, headers: {} };
    case 7: {
      const id =
        random.next() < 0.5 ? crypto.randomUUID() : percentEncode(random.pick(NASTY_STRINGS));
      return { method: random.pick(['GET', 'DELETE']), path: `/api/v2/silence/${id}`, headers: {} };
    }
    case 8:
      return {
        method: random.pick(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']),
        path: random.pick([
          '/api/v2/status',
          '/api/v2/receivers',
          '/api/v2/alerts',
          '/api/v2/nope',
          '/api/v1/alerts',
          '/api/v1/silences',
          '/-/ready',
          '/metrics',
          '/%2e%2e/%2e%2e/etc/passwd',
          '/api/v2/silence/',
        ]),
        headers,
        body: random.next() < 0.3 ? jsonBody(random, random.pick(NASTY_VALUES)) : undefined,
      };
    default:
      return { method: 'POST', path: '/-/reload', headers: {} };
  }
}
