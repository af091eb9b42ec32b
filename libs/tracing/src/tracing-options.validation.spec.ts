import type { TracingModuleOptions } from './tracing-options.interface';
import { resolveTracingOptions } from './tracing-options.validation';

const resolve = (options: unknown, env = {}) =>
  resolveTracingOptions(options as TracingModuleOptions, env);

describe('resolveTracingOptions', () => {
  it('fills in the defaults', () => {
    expect(resolve(undefined)).toEqual({
      enabled: true,
      serviceName: undefined,
      resourceAttributes: {},
      exporter: {
        type: 'none',
        endpoint: 'http://localhost:4318/v1/traces',
        headers: undefined,
        timeoutMillis: 5000,
        maxQueueSize: 2048,
      },
      sampling: { strategy: 'always', ratio: 1, parentBased: true },
      traceRedisCommands: true,
      traceHttpRequests: true,
      spans: {
        includeArgs: false,
        includeResult: false,
        maxArgLength: 100,
        excludeCommands: new Set(),
        connectionCommands: true,
        requireParentSpan: false,
        requestHook: undefined,
        responseHook: undefined,
        statementSerializer: undefined,
        semconv: 'old',
      },
      http: {
        requestHook: undefined,
        responseHook: undefined,
        redactQueryString: true,
        semconv: 'old',
      },
      metrics: {
        enabled: false,
        prefix: 'redisx_',
        exemplars: { filter: 'trace_based', slowerThanMillis: 50 },
      },
      semconv: { database: 'old', http: 'old' },
      otherInstrumentations: 'defer',
      providerOptions: [],
    });
  });

  it('keeps valid values, upper-cases excluded commands and adds the traces path to a bare endpoint', () => {
    const resolved = resolve({
      enabled: false,
      serviceName: 'shop',
      resourceAttributes: { 'deployment.environment': 'test', 'service.version': 3 },
      exporter: { type: 'otlp', endpoint: 'http://collector:4318', headers: { 'x-api-key': 'k' } },
      sampling: { strategy: 'ratio', ratio: 0.25, parentBased: false },
      traceRedisCommands: false,
      traceHttpRequests: false,
      spans: {
        includeArgs: true,
        includeResult: true,
        maxArgLength: 20,
        excludeCommands: ['ping', 'Info'],
      },
      metrics: { prefix: 'myapp_redis_' },
      isGlobal: true,
    });
    expect(resolved).toMatchObject({
      enabled: false,
      serviceName: 'shop',
      resourceAttributes: { 'deployment.environment': 'test', 'service.version': 3 },
      exporter: {
        type: 'otlp',
        endpoint: 'http://collector:4318/v1/traces',
        headers: { 'x-api-key': 'k' },
      },
      sampling: { strategy: 'ratio', ratio: 0.25, parentBased: false },
      traceRedisCommands: false,
      traceHttpRequests: false,
      spans: { includeArgs: true, includeResult: true, maxArgLength: 20 },
      metrics: { enabled: true, prefix: 'myapp_redis_' },
    });
    expect([...resolved.spans.excludeCommands]).toEqual(['PING', 'INFO']);
    expect(
      resolve({ exporter: { type: 'otlp', endpoint: 'https://c/x/traces' } }).exporter.endpoint,
    ).toBe('https://c/x/traces');
  });

  it.each([
    [{}, { serviceName: undefined, type: 'none', sampling: 'always', parentBased: true }],
    [
      { OTEL_SERVICE_NAME: 'billing', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel:4318/' },
      { serviceName: 'billing', type: 'otlp', endpoint: 'http://otel:4318/v1/traces' },
    ],
    [
      {
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://otel:4318/custom',
        OTEL_TRACES_EXPORTER: 'console',
      },
      { type: 'console', endpoint: 'http://otel:4318/custom' },
    ],
    [
      { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' },
      { sampling: 'ratio', ratio: 0.1, parentBased: true },
    ],
    [{ OTEL_TRACES_SAMPLER: 'always_off' }, { sampling: 'never', parentBased: false }],
  ])('reads the OTEL_* environment %j where options are silent', (env, expected) => {
    const resolved = resolve({}, env);
    const seen = {
      serviceName: resolved.serviceName,
      type: resolved.exporter.type,
      endpoint: resolved.exporter.endpoint,
      sampling: resolved.sampling.strategy,
      ratio: resolved.sampling.ratio,
      parentBased: resolved.sampling.parentBased,
    };
    expect(seen).toMatchObject(expected);
  });

  it('lets options win over the environment', () => {
    const env = {
      OTEL_SERVICE_NAME: 'env',
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_TRACES_SAMPLER: 'always_off',
    };
    const resolved = resolve(
      { serviceName: 'opt', exporter: 'memory', sampling: { strategy: 'always' } },
      env,
    );
    expect([resolved.serviceName, resolved.exporter.type, resolved.sampling.strategy]).toEqual([
      'opt',
      'memory',
      'always',
    ]);
  });

  it.each([
    ['a string', 'memory', 'TracingModule: options must be an object, got "memory"'],
    ['an array', [], 'TracingModule: options must be an object, got an array'],
    [
      'an unknown option',
      { exportr: 'memory' },
      'TracingModule: unknown option "exportr"; known options are enabled, serviceName, resourceAttributes, exporter, sampling, traceRedisCommands, traceHttpRequests, spans, http, metrics, otherInstrumentations, isGlobal',
    ],
    [
      'an unknown nested option',
      { spans: { includeArg: true } },
      'TracingModule: unknown option "includeArg" in "spans"; known options are includeArgs, includeResult, maxArgLength, excludeCommands, connectionCommands, requireParentSpan, requestHook, responseHook, statementSerializer',
    ],
    [
      'enabled not boolean',
      { enabled: 'yes' },
      'TracingModule: option "enabled" must be a boolean, got "yes"',
    ],
    [
      'empty serviceName',
      { serviceName: '' },
      'TracingModule: option "serviceName" must be a non-empty string, got ""',
    ],
    [
      'an unknown exporter',
      { exporter: 'jaeger' },
      'TracingModule: option "exporter" must be one of "otlp", "console", "memory", "none", got "jaeger"',
    ],
    [
      'an unknown exporter type',
      { exporter: { type: 'zipkin' } },
      'TracingModule: option "exporter.type" must be one of "otlp", "console", "memory", "none", got "zipkin"',
    ],
    [
      'an endpoint that is not a URL',
      { exporter: { type: 'otlp', endpoint: 'localhost:4318' } },
      'TracingModule: option "exporter.endpoint" must be an http(s) URL, got "localhost:4318"',
    ],
    [
      'headers that are not strings',
      { exporter: { type: 'otlp', headers: { a: 1 } } },
      'TracingModule: option "exporter.headers" must be an object of strings, got an object',
    ],
    [
      'a sampling ratio above 1',
      { sampling: { strategy: 'ratio', ratio: 2 } },
      'TracingModule: option "sampling.ratio" must be a number from 0 to 1, got 2',
    ],
    [
      'an unknown sampling strategy',
      { sampling: { strategy: 'parent' } },
      'TracingModule: option "sampling.strategy" must be one of "always", "never", "ratio", got "parent"',
    ],
    [
      'a tiny maxArgLength',
      { spans: { maxArgLength: 2 } },
      'TracingModule: option "spans.maxArgLength" must be an integer of at least 4, got 2',
    ],
    [
      'excludeCommands not a list',
      { spans: { excludeCommands: 'PING' } },
      'TracingModule: option "spans.excludeCommands" must be an array of command names, got "PING"',
    ],
    [
      'a hook that is not a function',
      { spans: { requestHook: 'log' } },
      'TracingModule: option "spans.requestHook" must be a function, got "log"',
    ],
    [
      'an HTTP hook that is not a function',
      { http: { responseHook: {} } },
      'TracingModule: option "http.responseHook" must be a function, got an object',
    ],
    [
      'redactQueryString not boolean',
      { http: { redactQueryString: 'no' } },
      'TracingModule: option "http.redactQueryString" must be a boolean, got "no"',
    ],
    [
      'connectionCommands not boolean',
      { spans: { connectionCommands: 'nested' } },
      'TracingModule: option "spans.connectionCommands" must be a boolean, got "nested"',
    ],
    [
      'an unknown otherInstrumentations',
      { otherInstrumentations: 'both' },
      'TracingModule: option "otherInstrumentations" must be one of "defer", "replace", got "both"',
    ],
    [
      'a metric prefix with a dash',
      { metrics: { prefix: 'my-app_' } },
      'TracingModule: option "metrics.prefix" must be a metric name prefix such as "myapp_redis_", got "my-app_"',
    ],
    [
      'an unknown exemplar filter',
      { metrics: { exemplars: { filter: 'sampled' } } },
      'TracingModule: option "metrics.exemplars.filter" must be one of "trace_based", "always_on", "always_off", got "sampled"',
    ],
    [
      'a negative slowness threshold',
      { metrics: { exemplars: { slowerThanMillis: -1 } } },
      'TracingModule: option "metrics.exemplars.slowerThanMillis" must be a number of milliseconds of at least 0, got -1',
    ],
    [
      'a slowness threshold as text',
      { metrics: { exemplars: { slowerThanMillis: '100ms' } } },
      'TracingModule: option "metrics.exemplars.slowerThanMillis" must be a number of milliseconds of at least 0, got "100ms"',
    ],
    [
      'exemplars as a boolean',
      { metrics: { exemplars: true } },
      'TracingModule: option "metrics.exemplars" must be an object, got true',
    ],
    [
      'an unknown exemplar option',
      { metrics: { exemplars: { threshold: 5 } } },
      'TracingModule: unknown option "threshold" in "metrics.exemplars"; known options are filter, slowerThanMillis',
    ],
    [
      'a resource attribute object',
      { resourceAttributes: { team: { name: 'a' } } },
      'TracingModule: option "resourceAttributes.team" must be a string, number or boolean, got an object',
    ],
    [
      'sampling null',
      { sampling: null },
      'TracingModule: option "sampling" must be an object, got null',
    ],
    [
      'an unknown option named as a member of Object.prototype',
      JSON.parse('{"spans":{"__proto__":{}}}'),
      'TracingModule: unknown option "__proto__" in "spans"; known options are includeArgs, includeResult, maxArgLength, excludeCommands, connectionCommands, requireParentSpan, requestHook, responseHook, statementSerializer',
    ],
  ])('rejects %s', (_case, options, message) => {
    expect(() => resolve(options)).toThrow(new Error(message));
  });

  it('takes null for the default of an option that has one', () => {
    const resolved = resolve({
      enabled: null,
      exporter: { type: null, timeoutMillis: null },
      sampling: { strategy: 'never', ratio: null },
      spans: { maxArgLength: null, includeArgs: null },
      http: null,
      metrics: null,
    });
    expect(resolved).toMatchObject({
      enabled: true,
      exporter: { type: 'none', timeoutMillis: 5000 },
      sampling: { strategy: 'never', ratio: 1, parentBased: true },
      spans: { maxArgLength: 100, includeArgs: false },
      http: { redactQueryString: true },
      metrics: { enabled: false },
    });
  });

  it('reads options an object inherits, as from a class instance', () => {
    class Spans {
      get maxArgLength() {
        return 7;
      }
    }
    class Options {
      readonly spans = new Spans();
      get serviceName() {
        return 'inherited';
      }
    }
    const resolved = resolve(new Options());
    expect([resolved.serviceName, resolved.spans.maxArgLength]).toEqual(['inherited', 7]);
  });

  it.each([
    ['', { database: 'old', http: 'old' }],
    ['database', { database: 'stable', http: 'old' }],
    ['http/dup', { database: 'old', http: 'dup' }],
    [' Database/dup , http ,messaging', { database: 'dup', http: 'stable' }],
    ['database,database/dup', { database: 'dup', http: 'old' }],
  ])('reads OTEL_SEMCONV_STABILITY_OPT_IN=%j', (value, semconv) => {
    const resolved = resolve({}, { OTEL_SEMCONV_STABILITY_OPT_IN: value });
    expect(resolved.semconv).toEqual(semconv);
    expect(resolved.spans.semconv).toBe(semconv.database);
    expect(resolved.http.semconv).toBe(semconv.http);
  });

  it.each([
    [{ OTEL_TRACES_SAMPLER: 'sometimes' }, /OTEL_TRACES_SAMPLER must be one of always_on, /],
    [
      { OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: 'half' },
      /OTEL_TRACES_SAMPLER_ARG must be/,
    ],
    [
      { OTEL_TRACES_EXPORTER: 'zipkin' },
      /OTEL_TRACES_EXPORTER must be otlp, console or none, got "zipkin"/,
    ],
    [
      { OTEL_METRICS_EXEMPLAR_FILTER: 'sometimes' },
      /OTEL_METRICS_EXEMPLAR_FILTER must be one of trace_based, always_on, always_off, got "sometimes"/,
    ],
  ])('rejects the environment %j', (env, message) => {
    expect(() => resolve({}, env)).toThrow(message);
  });

  it.each([
    ['no options', {}, {}, { filter: 'trace_based', slowerThanMillis: 50 }],
    [
      'the environment',
      {},
      { OTEL_METRICS_EXEMPLAR_FILTER: 'ALWAYS_ON' },
      { filter: 'always_on', slowerThanMillis: 50 },
    ],
    [
      'options over the environment',
      { filter: 'always_off', slowerThanMillis: 0 },
      { OTEL_METRICS_EXEMPLAR_FILTER: 'always_on' },
      { filter: 'always_off', slowerThanMillis: 0 },
    ],
    [
      'null for the defaults',
      { filter: null, slowerThanMillis: null },
      {},
      { filter: 'trace_based', slowerThanMillis: 50 },
    ],
    [
      'a fractional threshold',
      { slowerThanMillis: 2.5 },
      {},
      { filter: 'trace_based', slowerThanMillis: 2.5 },
    ],
  ])('resolves metrics.exemplars from %s', (_case, exemplars, env, expected) => {
    const resolved = resolve({ metrics: { exemplars } }, env);
    expect(resolved.metrics.exemplars).toEqual(expected);
  });
});
