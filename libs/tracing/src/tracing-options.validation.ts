import type {
  ResolvedTracingOptions,
  TracingExporter,
  TracingModuleOptions,
} from './tracing-options.interface';

const EXPORTERS: readonly TracingExporter[] = ['console', 'memory', 'none'];
const KNOWN_OPTIONS = ['enabled', 'serviceName', 'exporter', 'isGlobal'];

/** Checks the options given to `TracingModule.forRoot` and fills in defaults. */
export function resolveTracingOptions(
  options: TracingModuleOptions | undefined,
): ResolvedTracingOptions {
  // Checked as unknown input: JavaScript callers and configuration files get no type checking.
  const value: unknown = options ?? {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(`options must be an object, got ${describe(value)}`);
  }
  const given = value as Record<string, unknown>;
  const unknown = Object.keys(given).find((key) => !KNOWN_OPTIONS.includes(key));
  if (unknown !== undefined) {
    throw invalid(`unknown option "${unknown}"; known options are ${KNOWN_OPTIONS.join(', ')}`);
  }
  const { enabled = true, serviceName, exporter = 'none', isGlobal = false } = given;
  check('enabled', enabled, typeof enabled === 'boolean', 'a boolean');
  check('isGlobal', isGlobal, typeof isGlobal === 'boolean', 'a boolean');
  const nameOk =
    serviceName === undefined || (typeof serviceName === 'string' && serviceName !== '');
  check('serviceName', serviceName, nameOk, 'a non-empty string');
  const isExporter = (EXPORTERS as readonly unknown[]).includes(exporter);
  check('exporter', exporter, isExporter, `one of ${EXPORTERS.map(describe).join(', ')}`);
  return {
    enabled: enabled as boolean,
    serviceName: serviceName as string | undefined,
    exporter: exporter as TracingExporter,
    isGlobal: isGlobal as boolean,
  };
}

function check(option: string, value: unknown, ok: boolean, expected: string): void {
  if (!ok) throw invalid(`option "${option}" must be ${expected}, got ${describe(value)}`);
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
