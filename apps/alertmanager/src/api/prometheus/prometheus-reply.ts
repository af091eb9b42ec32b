import type { Response } from 'express';

/** Prometheus's API error types, each with the status code it is answered with. */
export const ERROR_STATUS = {
  bad_data: 400,
  execution: 422,
  canceled: 499,
  timeout: 503,
  internal: 500,
  not_found: 404,
  unavailable: 503,
} as const;

export type PrometheusErrorType = keyof typeof ERROR_STATUS;

/** An API failure with Prometheus's `errorType` and message. */
export class PrometheusApiError extends Error {
  constructor(
    readonly errorType: PrometheusErrorType,
    message: string,
  ) {
    super(message);
  }
}

/** `invalid parameter "name": reason`, upstream's wording for a bad query parameter. */
export function invalidParam(name: string, reason: string): PrometheusApiError {
  return new PrometheusApiError('bad_data', `invalid parameter ${JSON.stringify(name)}: ${reason}`);
}

/**
 * An answer ready to send: status code and JSON body (as bytes when it comes from a query
 * thread, whose memory is handed over rather than copied into a string on the main thread).
 */
export interface PrometheusReply {
  readonly status: number;
  readonly body: string | Uint8Array;
}

/** JSON already written out, to go into a reply as it is (a large query answer is written directly). */
export class JsonText {
  constructor(readonly text: string) {}
}

/** `{"status":"success","data":...}` with any warnings, as Prometheus's API answers. */
export function successReply(
  data: unknown,
  warnings: readonly string[] = [],
  infos: readonly string[] = [],
): PrometheusReply {
  if (data instanceof JsonText) {
    let text = `{"status":"success","data":${data.text}`;
    if (warnings.length > 0) text += `,"warnings":${JSON.stringify(warnings)}`;
    if (infos.length > 0) text += `,"infos":${JSON.stringify(infos)}`;
    return { status: 200, body: `${text}}` };
  }
  const body: Record<string, unknown> = { status: 'success', data };
  if (warnings.length > 0) body['warnings'] = warnings;
  if (infos.length > 0) body['infos'] = infos;
  return { status: 200, body: JSON.stringify(body) };
}

/** `{"status":"error","errorType":...,"error":...}` with the error type's status code. */
export function failureReply(error: unknown): PrometheusReply {
  const failure =
    error instanceof PrometheusApiError ? error : new PrometheusApiError('internal', String(error));
  return {
    status: ERROR_STATUS[failure.errorType],
    body: JSON.stringify({ status: 'error', errorType: failure.errorType, error: failure.message }),
  };
}

/**
 * Sends a reply as JSON, as Prometheus does: no ETag (Express would hash every body for one,
 * megabytes for a large range query, on the main thread).
 */
export function sendReply(res: Response, reply: PrometheusReply): void {
  const { body } = reply;
  const bytes =
    typeof body === 'string'
      ? Buffer.from(body, 'utf8')
      : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  res.status(reply.status);
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', bytes.length);
  res.end(bytes);
}

export function sendSuccess(
  res: Response,
  data: unknown,
  warnings: readonly string[] = [],
  infos: readonly string[] = [],
): void {
  sendReply(res, successReply(data, warnings, infos));
}

export function sendFailure(res: Response, error: unknown): void {
  sendReply(res, failureReply(error));
}
