import {
  Allow,
  getMetadataStorage,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  Matches,
  Max,
  Min,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  ValidationTypes,
  validateSync,
  type ValidationError,
  type ValidationOptions,
} from 'class-validator';
import { EXEMPLAR_FILTERS, type ExemplarFilterName } from './metrics/exemplar.filter';
import type { OtherInstrumentationsMode } from './other-instrumentations';
import type {
  HttpSpanOptions,
  RedisExemplarOptions,
  RedisMetricsOptions,
  RedisSpanOptions,
  TracingExporterType,
  TracingSamplingOptions,
} from './tracing-options.interface';

// The option classes below are what class-validator checks. Each rule's message is what the
// option accepts; `firstProblem` turns it into "option "<path>" must be <message>, got <value>"
// (class-validator's own messages would expand `$value` and the like inside the user's values).

const EXPORTERS: TracingExporterType[] = ['otlp', 'console', 'memory', 'none'];
const ATTRIBUTES = 'isResourceAttributes';

const must = (expected: string): ValidationOptions => ({ message: expected });
const oneOf = (values: readonly string[]) => `one of ${values.map((v) => `"${v}"`).join(', ')}`;
const atLeast = (min: number) => must(`an integer of at least ${min}`);

/** A rule of this module's own. */
const Check = (name: string, validate: (value: unknown) => boolean, expected: string) =>
  ValidateBy({ name, validator: { validate } }, must(expected));

const compose =
  (...decorators: PropertyDecorator[]): PropertyDecorator =>
  (target, key) =>
    decorators.forEach((decorate) => decorate(target, key));

/** Rules that apply once the option is given; null is checked (and refused). */
const IsGiven = () => ValidateIf((_options, value) => value !== undefined);
/** true or false; absent or null takes the default. (`IsBoolean` would take `new Boolean()` too.) */
const Flag = () => compose(IsOptional(), IsIn([true, false], must('a boolean')));
/** An integer of at least `min`; absent or null takes the default. */
const Integer = (min: number) => compose(IsOptional(), IsInt(atLeast(min)), Min(min, atLeast(min)));
/** A callback. */
const Hook = () =>
  compose(
    IsGiven(),
    Check('isFunction', (v) => typeof v === 'function', 'a function'),
  );
/** Options of their own, checked against the class `instantiate` makes of them. */
const Group = () => compose(Check('isOptionsObject', isPlainObject, 'an object'), ValidateNested());
/** A non-empty string. */
const NAME = /./s;

class SpanOptions implements RedisSpanOptions {
  @Flag() includeArgs?: boolean;
  @Flag() includeResult?: boolean;
  @Integer(4) maxArgLength?: number;
  @IsGiven()
  @IsArray(must('an array of command names'))
  @Matches(NAME, { each: true, ...must('an array of command names') })
  excludeCommands?: string[];
  @Flag() connectionCommands?: boolean;
  @Flag() requireParentSpan?: boolean;
  @Hook() requestHook?: RedisSpanOptions['requestHook'];
  @Hook() responseHook?: RedisSpanOptions['responseHook'];
  @Hook() statementSerializer?: RedisSpanOptions['statementSerializer'];
}

class HttpOptions implements HttpSpanOptions {
  @Hook() requestHook?: HttpSpanOptions['requestHook'];
  @Hook() responseHook?: HttpSpanOptions['responseHook'];
  @Flag() redactQueryString?: boolean;
}

class ExemplarOptions implements RedisExemplarOptions {
  @IsOptional() @IsIn(EXEMPLAR_FILTERS, must(oneOf(EXEMPLAR_FILTERS))) filter?: ExemplarFilterName;
  @IsOptional()
  @Check('isMillis', isNonNegativeNumber, 'a number of milliseconds of at least 0')
  slowerThanMillis?: number;
}

class MetricsOptions implements RedisMetricsOptions {
  @Flag() enabled?: boolean;
  @IsGiven()
  @Matches(/^[a-zA-Z_:][a-zA-Z0-9_:]*$/, must('a metric name prefix such as "myapp_redis_"'))
  prefix?: string;
  @IsOptional() @Group() exemplars?: ExemplarOptions;
}

/** The exporter as an object; a type left out (or null) comes from the environment. */
export class ExporterOptions {
  @IsOptional() @IsIn(EXPORTERS, must(oneOf(EXPORTERS))) type?: TracingExporterType;
  @IsGiven() @Check('isHttpUrl', isHttpUrl, 'an http(s) URL') endpoint?: string;
  @IsGiven()
  @Check('isStringMap', isStringMap, 'an object of strings')
  headers?: Record<string, string>;
  @Integer(1) timeoutMillis?: number;
  @Integer(1) maxQueueSize?: number;
}

/** `exporter: 'memory'`, the exporter by name: its errors name `exporter`. */
class ExporterByName extends ExporterOptions {}

class SamplingOptions implements TracingSamplingOptions {
  @IsIn(['always', 'never', 'ratio'], must(oneOf(['always', 'never', 'ratio'])))
  strategy!: TracingSamplingOptions['strategy'];
  @IsOptional()
  @Min(0, must('a number from 0 to 1'))
  @Max(1, must('a number from 0 to 1'))
  ratio?: number;
  @Flag() parentBased?: boolean;
}

/**
 * `TracingModuleOptions` once validated. Options with a default take null for it (their types
 * leave null out, as it is only for JavaScript callers).
 */
export class TracingOptions {
  @Flag() enabled?: boolean;
  @IsGiven() @Matches(NAME, must('a non-empty string')) serviceName?: string;
  @IsGiven()
  @Check('isOptionsObject', isPlainObject, 'an object')
  @Check(ATTRIBUTES, (v) => !isPlainObject(v) || !badAttribute(v), 'a string, number or boolean')
  resourceAttributes?: Record<string, string | number | boolean>;
  @IsOptional() @Group() exporter?: ExporterOptions;
  @IsGiven() @Group() sampling?: SamplingOptions;
  @Flag() traceRedisCommands?: boolean;
  @Flag() traceHttpRequests?: boolean;
  @IsOptional() @Group() spans?: SpanOptions;
  @IsOptional() @Group() http?: HttpOptions;
  @IsOptional() @Group() metrics?: MetricsOptions;
  @IsGiven()
  @IsIn(['defer', 'replace'], must(oneOf(['defer', 'replace'])))
  otherInstrumentations?: OtherInstrumentationsMode;
  /** `ConfigurableModuleBuilder`'s extra, which Nest reads. */
  @Allow() isGlobal?: unknown;
}

/**
 * Checks the options of `TracingModule` as unknown input (JavaScript callers and configuration
 * files get no type checking). The error names the first bad option's path and its value.
 */
export function validateTracingOptions(options: unknown): TracingOptions {
  if (!isPlainObject(options)) throw invalid(`options must be an object, got ${describe(options)}`);
  const validated = instantiate(options);
  const problem = firstProblem(
    validateSync(validated, {
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      stopAtFirstError: true,
    }),
    '',
  );
  if (problem) throw invalid(problem);
  return validated;
}

/** The options as instances of the classes above, the nested groups included. */
function instantiate(options: object): TracingOptions {
  const root = instanceOf(TracingOptions, options, '');
  const exporter: unknown = root.exporter;
  root.exporter =
    typeof exporter === 'string'
      ? instanceOf(ExporterByName, { type: exporter }, 'exporter')
      : group(ExporterOptions, exporter, 'exporter');
  root.sampling = group(SamplingOptions, root.sampling, 'sampling');
  root.spans = group(SpanOptions, root.spans, 'spans');
  root.http = group(HttpOptions, root.http, 'http');
  root.metrics = group(MetricsOptions, root.metrics, 'metrics');
  if (isPlainObject(root.metrics)) {
    root.metrics.exemplars = group(ExemplarOptions, root.metrics.exemplars, 'metrics.exemplars');
  }
  return root;
}

/** An object's options as an instance of `type`; options its prototype provides count as given. */
function instanceOf<T extends object>(type: new () => T, value: object, path: string): T {
  // The whitelist looks names up in a plain object, where Object.prototype's names (`__proto__`,
  // `constructor`, ...) pass for known ones.
  const hidden = Object.keys(value).find((key) => key in Object.prototype);
  if (hidden !== undefined) throw invalid(unknownOption(type, hidden, path));
  const copy: Record<string, unknown> = { ...value };
  for (const key of knownOptions(type)) {
    if (!Object.hasOwn(copy, key) && key in value)
      copy[key] = (value as Record<string, unknown>)[key];
  }
  return Object.setPrototypeOf(copy, type.prototype) as T;
}

/** Not yet validated: anything but an object is left for the `isOptionsObject` rule. */
function group<T extends object>(type: new () => T, value: unknown, path: string): T {
  return (isPlainObject(value) ? instanceOf(type, value, path) : value) as T;
}

/** The option names of a class, in their order of declaration. */
function knownOptions(type: new () => object): string[] {
  const rules = getMetadataStorage().getTargetValidationMetadatas(type, '', true, false);
  return [...new Set(rules.map((rule) => rule.propertyName))];
}

function firstProblem(errors: ValidationError[], parent: string): string | undefined {
  for (const error of errors) {
    const path =
      error.target instanceof ExporterByName
        ? 'exporter'
        : parent
          ? `${parent}.${error.property}`
          : error.property;
    const [rule, expected] = Object.entries(error.constraints ?? {})[0] ?? [];
    if (rule === ValidationTypes.WHITELIST) {
      return unknownOption(Object.getPrototypeOf(error.target).constructor, error.property, parent);
    }
    if (rule === ATTRIBUTES) {
      // Named by the attribute, with its own value.
      const [key, item] = badAttribute(error.value) ?? [];
      return `option "${path}.${key}" must be ${expected}, got ${describe(item)}`;
    }
    if (expected !== undefined)
      return `option "${path}" must be ${expected}, got ${describe(error.value)}`;
    const nested = firstProblem(error.children ?? [], path);
    if (nested) return nested;
  }
  return undefined;
}

function unknownOption(type: new () => object, name: string, path: string): string {
  const where = path ? ` in "${path}"` : '';
  return `unknown option "${name}"${where}; known options are ${knownOptions(type).join(', ')}`;
}

function badAttribute(value: object): [string, unknown] | undefined {
  return Object.entries(value).find(
    ([, item]) => !['string', 'number', 'boolean'].includes(typeof item),
  );
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string' || !URL.canParse(value)) return false;
  return ['http:', 'https:'].includes(new URL(value).protocol);
}

function isNonNegativeNumber(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function isStringMap(value: unknown): boolean {
  return isPlainObject(value) && Object.values(value).every((item) => typeof item === 'string');
}

/** Any object but an array: class instances count. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
