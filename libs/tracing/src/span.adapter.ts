import { Logger } from '@nestjs/common';
import {
  diag,
  SpanKind as OtelSpanKind,
  SpanStatusCode,
  type Exception,
  type Link,
  type Span,
  type SpanOptions,
} from '@opentelemetry/api';
import type {
  ISpan,
  ISpanContext,
  ISpanLink,
  ISpanOptions,
  SpanAttributes,
  SpanAttributeValue,
  SpanKind,
  SpanStatus,
} from './span.interface';

const KINDS: Record<SpanKind, OtelSpanKind> = {
  INTERNAL: OtelSpanKind.INTERNAL,
  CLIENT: OtelSpanKind.CLIENT,
  SERVER: OtelSpanKind.SERVER,
  PRODUCER: OtelSpanKind.PRODUCER,
  CONSUMER: OtelSpanKind.CONSUMER,
};

/** {@link ISpan} over an OpenTelemetry span. */
export class SpanAdapter implements ISpan {
  constructor(private readonly span: Span) {}

  setAttribute(key: string, value: SpanAttributeValue): this {
    this.span.setAttribute(key, value);
    return this;
  }

  setAttributes(attributes: SpanAttributes): this {
    this.span.setAttributes(attributes);
    return this;
  }

  addEvent(name: string, attributes?: SpanAttributes): this {
    this.span.addEvent(name, attributes);
    return this;
  }

  setStatus(status: SpanStatus, description?: string): this {
    const known = String(status).toUpperCase();
    if (known !== 'OK' && known !== 'ERROR') {
      // As OpenTelemetry's API: bad input is reported, never thrown into the caller.
      warnOnce(
        `status:${String(status)}`,
        `span status must be OK or ERROR, got "${String(status)}"; status left unchanged`,
      );
      return this;
    }
    // OpenTelemetry keeps a description only on ERROR.
    this.span.setStatus(
      known === 'OK'
        ? { code: SpanStatusCode.OK }
        : { code: SpanStatusCode.ERROR, message: description },
    );
    return this;
  }

  recordException(error: unknown): this {
    this.span.recordException(toException(error));
    return this;
  }

  updateName(name: string): this {
    this.span.updateName(name);
    return this;
  }

  addLink(link: ISpanLink): this {
    this.span.addLink(toLink(link));
    return this;
  }

  spanContext(): ISpanContext {
    const { traceId, spanId, traceFlags } = this.span.spanContext();
    return { traceId, spanId, traceFlags };
  }

  isRecording(): boolean {
    return this.span.isRecording();
  }

  otelSpan(): unknown {
    return this.span;
  }

  end(): void {
    this.span.end();
  }
}

const KIND_NAMES = Object.keys(KINDS);
const warned = new Set<string>();

/**
 * Reports a misuse once per distinct value, where the module's other warnings go (Nest's
 * `Logger`, context `TracingModule`), and to OpenTelemetry's diagnostic logger for those who
 * read that one.
 */
function warnOnce(key: string, message: string): void {
  if (warned.has(key)) return;
  warned.add(key);
  new Logger('TracingModule').warn(message);
  diag.warn(`@redisx/tracing: ${message}`);
}

function toLink(link: ISpanLink): Link {
  return { context: { ...link.context }, attributes: link.attributes };
}

/**
 * Translates {@link ISpanOptions}. An unknown kind is reported once and the default (`CLIENT`)
 * used instead, as OpenTelemetry's API never throws on bad input; kinds are matched in any case.
 */
export function toSpanOptions(options: ISpanOptions = {}): SpanOptions {
  const wanted = String(options.kind ?? 'CLIENT').toUpperCase();
  let kind = KINDS.CLIENT;
  if (Object.hasOwn(KINDS, wanted)) kind = KINDS[wanted as SpanKind];
  else {
    warnOnce(
      `kind:${String(options.kind)}`,
      `span kind must be one of ${KIND_NAMES.join(', ')}, got "${String(options.kind)}"; CLIENT used`,
    );
  }
  return {
    kind,
    attributes: options.attributes,
    links: options.links?.map(toLink),
    startTime: options.startTime,
  };
}

/**
 * What `recordException` records, as the OpenTelemetry SDK reads it: an `Error` keeps its name,
 * message and stack; an object with a `code`, `name`, `message` or `stack` is passed as one (the
 * SDK takes `code` or `name` as the type); anything else is recorded as its JSON or its text.
 */
export function toException(error: unknown): Exception {
  if (error instanceof Error) return error;
  if (error !== null && typeof error === 'object') {
    const e = error as Record<string, unknown>;
    const fields = ['code', 'name', 'message', 'stack'].filter(
      (k) => typeof e[k] === 'string' || (k === 'code' && typeof e[k] === 'number'),
    );
    if (fields.length > 0) {
      return Object.fromEntries(fields.map((k) => [k, e[k]])) as unknown as Exception;
    }
    try {
      return JSON.stringify(error) ?? String(error);
    } catch {
      return String(error);
    }
  }
  return String(error);
}
