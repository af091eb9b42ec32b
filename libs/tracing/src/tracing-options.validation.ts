import {
  endpointFromEnvironment,
  exporterFromEnvironment,
  readOtelEnvironment,
  samplingFromEnvironment,
  semconvFromEnvironment,
  type OtelEnvironment,
} from './tracing-options.env';
import type {
  ResolvedExporter,
  ResolvedTracingOptions,
  TracingModuleOptions,
} from './tracing-options.interface';

type Fields = Record<string, unknown>;

const OPTIONS = [
  'enabled',
  'serviceName',
  'resourceAttributes',
  'exporter',
  'sampling',
  'traceRedisCommands',
  'traceHttpRequests',
  'spans',
  'http',
  'metrics',
  'otherInstrumentations',
  'isGlobal',
];
const EXPORTERS = ['otlp', 'console', 'memory', 'none'];

/**
 * Checks the options of `TracingModule` and fills in defaults, then the standard `OTEL_*`
 * variables for what the options leave open. Every error names the option and the bad value.
 */
export function resolveTracingOptions(
  options: TracingModuleOptions | undefined,
  env: OtelEnvironment = readOtelEnvironment(),
): ResolvedTracingOptions {
  // Checked as unknown input: JavaScript callers and configuration files get no type checking.
  const given = object('options', options ?? {}, OPTIONS);
  const serviceName = optional(given, 'serviceName', isName, 'a non-empty string');
  const spans = object('spans', given['spans'] ?? {}, [
    'includeArgs',
    'includeResult',
    'maxArgLength',
    'excludeCommands',
    'connectionCommands',
    'requireParentSpan',
    'requestHook',
    'responseHook',
    'statementSerializer',
  ]);
  const http = object('http', given['http'] ?? {}, [
    'requestHook',
    'responseHook',
    'redactQueryString',
  ]);
  const semconv = semconvFromEnvironment(env);
  const exclude = optional(
    spans,
    'excludeCommands',
    isNameList,
    'an array of command names',
    'spans.',
  );
  const metrics = object('metrics', given['metrics'] ?? { enabled: false }, ['enabled', 'prefix']);
  return {
    providerOptions: ['serviceName', 'resourceAttributes', 'exporter', 'sampling'].filter(
      (key) => given[key] !== undefined,
    ),
    enabled: flag(given, 'enabled', true),
    serviceName: (serviceName as string | undefined) ?? env.OTEL_SERVICE_NAME,
    resourceAttributes: attributes(given['resourceAttributes']),
    exporter: exporter(given['exporter'], env),
    sampling: sampling(given['sampling'], env),
    traceRedisCommands: flag(given, 'traceRedisCommands', true),
    traceHttpRequests: flag(given, 'traceHttpRequests', true),
    spans: {
      includeArgs: flag(spans, 'includeArgs', false, 'spans.'),
      includeResult: flag(spans, 'includeResult', false, 'spans.'),
      maxArgLength: integer(spans, 'maxArgLength', 100, 'spans.', 4),
      excludeCommands: new Set(((exclude as string[]) ?? []).map((name) => name.toUpperCase())),
      connectionCommands: flag(spans, 'connectionCommands', true, 'spans.'),
      requireParentSpan: flag(spans, 'requireParentSpan', false, 'spans.'),
      requestHook: hook(spans, 'requestHook', 'spans.'),
      responseHook: hook(spans, 'responseHook', 'spans.'),
      statementSerializer: hook(spans, 'statementSerializer', 'spans.'),
      semconv: semconv.database,
    },
    http: {
      requestHook: hook(http, 'requestHook', 'http.'),
      responseHook: hook(http, 'responseHook', 'http.'),
      redactQueryString: flag(http, 'redactQueryString', true, 'http.'),
      semconv: semconv.http,
    },
    semconv,
    otherInstrumentations: (optional(
      given,
      'otherInstrumentations',
      (value) => value === 'defer' || value === 'replace',
      'one of "defer", "replace"',
    ) ?? 'defer') as ResolvedTracingOptions['otherInstrumentations'],
    metrics: {
      enabled: flag(metrics, 'enabled', true, 'metrics.'),
      prefix:
        (optional(
          metrics,
          'prefix',
          isPrefix,
          'a metric name prefix such as "myapp_redis_"',
          'metrics.',
        ) as string) ?? 'redisx_',
    },
  };
}

function exporter(value: unknown, env: OtelEnvironment): ResolvedExporter {
  const given = typeof value === 'string' ? { type: value } : (value ?? {});
  const fields = object('exporter', given, [
    'type',
    'endpoint',
    'headers',
    'timeoutMillis',
    'maxQueueSize',
  ]);
  const type = fields['type'] ?? exporterFromEnvironment(env);
  if (!EXPORTERS.includes(type as string)) {
    const shown = typeof value === 'string' ? 'exporter' : 'exporter.type';
    fail(shown, type, `one of ${EXPORTERS.map((name) => `"${name}"`).join(', ')}`);
  }
  const endpoint = optional(fields, 'endpoint', isHttpUrl, 'an http(s) URL', 'exporter.') as
    string | undefined;
  const headers = fields['headers'];
  const stringMap =
    isPlainObject(headers) && Object.values(headers).every((v) => typeof v === 'string');
  if (headers !== undefined && !stringMap)
    fail('exporter.headers', headers, 'an object of strings');
  return {
    type: type as ResolvedExporter['type'],
    endpoint: endpoint ? withTracesPath(endpoint) : endpointFromEnvironment(env),
    headers: headers as Record<string, string> | undefined,
    timeoutMillis: integer(fields, 'timeoutMillis', 5000, 'exporter.', 1),
    maxQueueSize: integer(fields, 'maxQueueSize', 2048, 'exporter.', 1),
  };
}

/** A collector's base URL gets the traces path; a URL with a path is used as given. */
function withTracesPath(endpoint: string): string {
  const url = new URL(endpoint);
  return url.pathname === '/' ? `${url.origin}/v1/traces` : endpoint;
}

function sampling(value: unknown, env: OtelEnvironment): ResolvedTracingOptions['sampling'] {
  const defaults = samplingFromEnvironment(env) ?? { strategy: 'always', parentBased: true };
  if (value === undefined) return { ratio: 1, parentBased: true, ...defaults };
  const fields = object('sampling', value, ['strategy', 'ratio', 'parentBased']);
  const strategy = fields['strategy'];
  if (!['always', 'never', 'ratio'].includes(strategy as string)) {
    fail('sampling.strategy', strategy, 'one of "always", "never", "ratio"');
  }
  const ratio = fields['ratio'] ?? 1;
  if (typeof ratio !== 'number' || !(ratio >= 0 && ratio <= 1)) {
    fail('sampling.ratio', ratio, 'a number from 0 to 1');
  }
  return {
    strategy: strategy as 'always',
    ratio: ratio as number,
    parentBased: flag(fields, 'parentBased', true, 'sampling.'),
  };
}

function attributes(value: unknown): ResolvedTracingOptions['resourceAttributes'] {
  if (value === undefined) return {};
  const fields = object('resourceAttributes', value);
  for (const [key, item] of Object.entries(fields)) {
    if (!['string', 'number', 'boolean'].includes(typeof item)) {
      fail(`resourceAttributes.${key}`, item, 'a string, number or boolean');
    }
  }
  return fields as ResolvedTracingOptions['resourceAttributes'];
}

function object(path: string, value: unknown, known?: string[]): Fields {
  if (!isPlainObject(value)) {
    if (path === 'options') throw invalid(`options must be an object, got ${describe(value)}`);
    fail(path, value, 'an object');
  }
  const unknown = known && Object.keys(value).find((key) => !known.includes(key));
  if (unknown) {
    const where = path === 'options' ? '' : ` in "${path}"`;
    throw invalid(`unknown option "${unknown}"${where}; known options are ${known.join(', ')}`);
  }
  return value;
}

function flag(fields: Fields, name: string, fallback: boolean, prefix = ''): boolean {
  const value = fields[name] ?? fallback;
  if (typeof value !== 'boolean') fail(prefix + name, value, 'a boolean');
  return value;
}

/** A function option; the resolved type is the caller's, checked here only as a function. */
function hook<T>(fields: Fields, name: string, prefix: string): T | undefined {
  return optional(fields, name, (value) => typeof value === 'function', 'a function', prefix) as
    T | undefined;
}

function integer(
  fields: Fields,
  name: string,
  fallback: number,
  prefix: string,
  min: number,
): number {
  const value = fields[name] ?? fallback;
  if (!Number.isInteger(value) || (value as number) < min) {
    fail(prefix + name, value, `an integer of at least ${min}`);
  }
  return value as number;
}

function optional(
  fields: Fields,
  name: string,
  ok: (value: unknown) => boolean,
  expected: string,
  prefix = '',
): unknown {
  const value = fields[name];
  if (value !== undefined && !ok(value)) fail(prefix + name, value, expected);
  return value;
}

const isName = (value: unknown) => typeof value === 'string' && value !== '';
const isNameList = (value: unknown) => Array.isArray(value) && value.every(isName);
const isPrefix = (value: unknown) =>
  typeof value === 'string' && /^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(value);

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string' || !URL.canParse(value)) return false;
  return ['http:', 'https:'].includes(new URL(value).protocol);
}

function isPlainObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(option: string, value: unknown, expected: string): never {
  throw invalid(`option "${option}" must be ${expected}, got ${describe(value)}`);
}

function invalid(problem: string): Error {
  return new Error(`TracingModule: ${problem}`);
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : String(value);
}
