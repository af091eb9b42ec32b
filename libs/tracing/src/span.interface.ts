/** Role of a span in a trace: `CLIENT` for outgoing calls (the default), `SERVER` for incoming ones. */
export type SpanKind = 'INTERNAL' | 'CLIENT' | 'SERVER' | 'PRODUCER' | 'CONSUMER';

/** Outcome recorded on a span. */
export type SpanStatus = 'OK' | 'ERROR';

/** Value of a span or event attribute. */
export type SpanAttributeValue = string | number | boolean;

/** Attributes by name, preferably OpenTelemetry semantic names such as `db.system`. */
export type SpanAttributes = Record<string, SpanAttributeValue>;

/** Where a span is in a trace: what logs carry to be correlated with it. */
export interface ISpanContext {
  /** 32 lowercase hex characters. */
  traceId: string;
  /** 16 lowercase hex characters. */
  spanId: string;
  /** W3C trace flags; bit 0 set when the span is sampled. */
  traceFlags: number;
}

/** A link to a span of another trace (a batch's messages, say). */
export interface ISpanLink {
  context: ISpanContext;
  attributes?: SpanAttributes;
}

/** How a span is started. */
export interface ISpanOptions {
  /** Default `CLIENT`. */
  kind?: SpanKind;
  /** Attributes set when the span starts, so samplers can see them. */
  attributes?: SpanAttributes;
  /** Spans of other traces this one relates to. */
  links?: ISpanLink[];
  /** When the span started, if not now (a `Date` or epoch milliseconds). */
  startTime?: Date | number;
}

/** A started span. Setters return the span so calls can be chained. */
export interface ISpan {
  setAttribute(key: string, value: SpanAttributeValue): ISpan;
  setAttributes(attributes: SpanAttributes): ISpan;
  /** Records a point-in-time occurrence, stamped with the current time. */
  addEvent(name: string, attributes?: SpanAttributes): ISpan;
  setStatus(status: SpanStatus, description?: string): ISpan;
  /** Adds an `exception` event with type, message and stack; leaves the status unchanged. */
  recordException(error: unknown): ISpan;
  /** Renames the span (a route known only after it started, say). */
  updateName(name: string): ISpan;
  /** Links the span to a span of another trace. */
  addLink(link: ISpanLink): ISpan;
  /** The trace and span ids, for log correlation. */
  spanContext(): ISpanContext;
  /** False when the span is not sampled: attributes set on it go nowhere. */
  isRecording(): boolean;
  /**
   * The underlying OpenTelemetry span, for what this interface does not cover. Typed `unknown`
   * so the package's API does not depend on `@opentelemetry/api`'s types; cast it to `Span`.
   */
  otelSpan(): unknown;
  /** Ends the span; a span that is never ended is never exported. */
  end(): void;
}
