/** Role of a span in a trace: `CLIENT` for outgoing calls (the default), `SERVER` for incoming ones. */
export type SpanKind = 'INTERNAL' | 'CLIENT' | 'SERVER' | 'PRODUCER' | 'CONSUMER';

/** Outcome recorded on a span. */
export type SpanStatus = 'OK' | 'ERROR';

/** Value of a span or event attribute. */
export type SpanAttributeValue = string | number | boolean;

/** Attributes by name, preferably OpenTelemetry semantic names such as `db.system`. */
export type SpanAttributes = Record<string, SpanAttributeValue>;

/** How a span is started. */
export interface ISpanOptions {
  /** Default `CLIENT`. */
  kind?: SpanKind;
  /** Attributes set when the span starts, so samplers can see them. */
  attributes?: SpanAttributes;
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
  /** Ends the span; a span that is never ended is never exported. */
  end(): void;
}
