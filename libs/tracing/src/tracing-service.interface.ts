import type { ISpan, ISpanOptions, SpanAttributes, SpanAttributeValue } from './span.interface';

/** Custom spans for application code, injected with `@Inject(TRACING_SERVICE)`. */
export interface ITracingService {
  /**
   * Runs `fn` inside a new span that is current while `fn` runs, so spans started inside it become
   * its children. Sets `OK` when `fn` returns; when it throws or rejects, records the exception, sets
   * `ERROR` and rejects with the same error. The span always ends.
   */
  withSpan<T>(name: string, fn: () => T | Promise<T>, options?: ISpanOptions): Promise<T>;
  /** Starts a child of the current span (if any) without making it current; the caller ends it. */
  startSpan(name: string, options?: ISpanOptions): ISpan;
  /** The span current in this async context, if there is one. */
  getCurrentSpan(): ISpan | undefined;
  /** Sets an attribute on the current span; does nothing without one. */
  setAttribute(key: string, value: SpanAttributeValue): void;
  /** Adds an event to the current span; does nothing without one. */
  addEvent(name: string, attributes?: SpanAttributes): void;
  /** Records an exception on the current span; does nothing without one. */
  recordException(error: unknown): void;
}
