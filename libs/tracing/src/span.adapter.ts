import {
  SpanKind as OtelSpanKind,
  SpanStatusCode,
  type Exception,
  type Span,
  type SpanOptions,
} from '@opentelemetry/api';
import type {
  ISpan,
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
    if (status !== 'OK' && status !== 'ERROR') {
      throw new TypeError(`span status must be OK or ERROR, got "${String(status)}"`);
    }
    // OpenTelemetry keeps a description only on ERROR.
    this.span.setStatus(
      status === 'OK'
        ? { code: SpanStatusCode.OK }
        : { code: SpanStatusCode.ERROR, message: description },
    );
    return this;
  }

  recordException(error: unknown): this {
    this.span.recordException(toException(error));
    return this;
  }

  end(): void {
    this.span.end();
  }
}

/** Translates {@link ISpanOptions}; rejects an unknown kind rather than recording a wrong one. */
export function toSpanOptions(options: ISpanOptions = {}): SpanOptions {
  const kind = options.kind ?? 'CLIENT';
  if (!Object.hasOwn(KINDS, kind)) {
    throw new TypeError(`span kind must be one of ${Object.keys(KINDS).join(', ')}, got "${kind}"`);
  }
  return { kind: KINDS[kind], attributes: options.attributes };
}

/** Errors keep their name, message and stack; anything else thrown is recorded as its text. */
export function toException(error: unknown): Exception {
  return error instanceof Error ? error : String(error);
}
