import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import {
  context,
  propagation,
  SpanKind,
  SpanStatusCode,
  type Attributes,
} from '@opentelemetry/api';
import { trace } from '@opentelemetry/api';
import * as http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as https from 'node:https';
import type { TracerProviderHost } from '../provider/tracer-provider.host';
import { withTracingScope } from '../tracing-scope';
import { runHook } from '../hook-runner';
import {
  reportOtherInstrumentation,
  unwrapOthers,
  wrappedByOthers,
  type OtherInstrumentationsMode,
} from '../other-instrumentations';
import { FASTIFY_ROUTE } from './fastify-routes';
import type { ResolvedHttpOptions, ResolvedTracingOptions } from '../tracing-options.interface';
import { TRACER_PROVIDER_HOST, TRACING_OPTIONS } from '../tracing.constants';

/** What Express (and Fastify's raw request) add to Node's request that the span reads. */
interface RoutedRequest extends IncomingMessage {
  originalUrl?: string;
  baseUrl?: string;
  protocol?: string;
  route?: { path?: unknown };
  [FASTIFY_ROUTE]?: string;
}

/**
 * Starts a SERVER span per request and runs the rest of the request in its context, so that
 * guards, interceptors, handlers and everything they await become its children. A `traceparent`
 * header continues the caller's trace. The span ends when the response is finished or the
 * connection closes, with the route the router matched and the status code actually sent.
 */
@Injectable()
export class HttpSpanMiddleware implements NestMiddleware {
  private readonly options: ResolvedHttpOptions;
  /** `@opentelemetry/instrumentation-http` makes the SERVER spans, and this middleware none. */
  private readonly deferred: boolean;

  constructor(
    @Inject(TRACER_PROVIDER_HOST) private readonly host: TracerProviderHost,
    @Inject(TRACING_OPTIONS) options: ResolvedTracingOptions,
  ) {
    this.options = options.http;
    this.deferred = deferToOtherHttpInstrumentation(options.otherInstrumentations);
  }

  use(request: RoutedRequest, response: ServerResponse, next: (error?: unknown) => void): void {
    if (this.deferred) {
      // Its SERVER span is the active one: custom and Redis spans nest under it.
      context.with(withTracingScope(context.active(), this.host.scope), next);
      return;
    }
    const method = request.method ?? 'GET';
    const parent = propagation.extract(context.active(), request.headers);
    const { semconv, requestHook, responseHook } = this.options;
    const url = fullUrl(request, this.options.redactQueryString);
    const attributes: Attributes =
      semconv === 'old'
        ? { 'http.method': method, 'http.url': url }
        : { 'http.request.method': method, 'url.full': url };
    if (semconv === 'dup') {
      attributes['http.method'] = method;
      attributes['http.url'] = url;
    }
    const span = this.host.tracer.startSpan(
      `${method}`,
      { kind: SpanKind.SERVER, attributes },
      parent,
    );
    if (requestHook !== undefined && span.isRecording()) {
      runHook('http.requestHook', () => requestHook(span, request));
    }
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      const status = response.statusCode;
      const route = routeOf(request);
      if (route !== undefined) {
        span.setAttribute('http.route', route);
        span.updateName(`${method} ${route}`);
      }
      if (semconv !== 'stable') span.setAttribute('http.status_code', status);
      if (semconv !== 'old') span.setAttribute('http.response.status_code', status);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR, message: `HTTP ${status}` });
      if (!response.writableFinished) span.setAttribute('http.aborted', true);
      if (responseHook !== undefined && span.isRecording()) {
        runHook('http.responseHook', () => responseHook(span, response));
      }
      span.end();
    };
    response.once('finish', end);
    response.once('close', end);
    context.with(withTracingScope(trace.setSpan(parent, span), this.host.scope), next);
  }
}

function fullUrl(request: RoutedRequest, redact: boolean): string {
  const encrypted = (request.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  const protocol = request.protocol ?? (encrypted ? 'https' : 'http');
  const host = request.headers.host ?? 'localhost';
  const path = request.originalUrl ?? request.url ?? '/';
  return `${protocol}://${host}${redact ? redactQuery(path) : path}`;
}

/**
 * The path with every query value replaced by `REDACTED` (`/orders?token=REDACTED`): query
 * strings carry tokens and signatures, which spans must not.
 */
export function redactQuery(path: string): string {
  const at = path.indexOf('?');
  if (at < 0) return path;
  const query = path
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq < 0 ? pair : `${pair.slice(0, eq)}=REDACTED`;
    })
    .join('&');
  return `${path.slice(0, at)}?${query}`;
}

/** The matched route template (`/orders/:id`), with the router's mount path, when there is one. */
function routeOf(request: RoutedRequest): string | undefined {
  const fastify = request[FASTIFY_ROUTE];
  if (fastify !== undefined) return fastify;
  const path = request.route?.path;
  if (typeof path !== 'string') return undefined;
  return `${request.baseUrl ?? ''}${path}`;
}

/**
 * Whether `@opentelemetry/instrumentation-http` traces incoming requests in this process (it wraps
 * `Server.prototype.emit` of `http` and `https`): then, by `otherInstrumentations`, its spans are
 * kept and this middleware makes none (`defer`), or its server wrappers are removed (`replace`).
 */
function deferToOtherHttpInstrumentation(mode: OtherInstrumentationsMode): boolean {
  const servers = [http.Server.prototype, https.Server.prototype];
  const wrapped = servers.filter((prototype) => wrappedByOthers(prototype, ['emit']).length > 0);
  if (wrapped.length === 0) return false;
  reportOtherInstrumentation('@opentelemetry/instrumentation-http', 'incoming HTTP requests', mode);
  if (mode === 'defer') return true;
  for (const prototype of wrapped) unwrapOthers(prototype, ['emit']);
  return false;
}
