import type { TracingModuleOptions } from './tracing-options.interface';
import { resolveTracingOptions } from './tracing-options.validation';

describe('resolveTracingOptions', () => {
  it('fills in the defaults', () => {
    expect(resolveTracingOptions(undefined)).toEqual({
      enabled: true,
      serviceName: undefined,
      exporter: 'none',
      isGlobal: false,
    });
  });

  it('keeps valid values', () => {
    const options = { enabled: false, serviceName: 'shop', exporter: 'console', isGlobal: true };
    expect(resolveTracingOptions(options as TracingModuleOptions)).toEqual(options);
  });

  it.each([
    ['a string', 'memory', 'TracingModule: options must be an object, got "memory"'],
    ['an array', [], 'TracingModule: options must be an object, got an array'],
    [
      'an unknown option',
      { exportr: 'memory' },
      'TracingModule: unknown option "exportr"; known options are enabled, serviceName, exporter, isGlobal',
    ],
    [
      'enabled not boolean',
      { enabled: 'yes' },
      'TracingModule: option "enabled" must be a boolean, got "yes"',
    ],
    [
      'isGlobal not boolean',
      { isGlobal: 1 },
      'TracingModule: option "isGlobal" must be a boolean, got 1',
    ],
    [
      'empty serviceName',
      { serviceName: '' },
      'TracingModule: option "serviceName" must be a non-empty string, got ""',
    ],
    [
      'serviceName not a string',
      { serviceName: { name: 'shop' } },
      'TracingModule: option "serviceName" must be a non-empty string, got an object',
    ],
    [
      'an exporter not available yet',
      { exporter: 'otlp' },
      'TracingModule: option "exporter" must be one of "console", "memory", "none", got "otlp"',
    ],
    [
      'exporter null',
      { exporter: null },
      'TracingModule: option "exporter" must be one of "console", "memory", "none", got null',
    ],
  ])('rejects %s', (_case, options, message) => {
    expect(() => resolveTracingOptions(options as TracingModuleOptions)).toThrow(
      new Error(message),
    );
  });
});
