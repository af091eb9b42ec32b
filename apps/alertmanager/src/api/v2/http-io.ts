import type { Request, Response } from 'express';
import { nextTurn } from '../../time/next-turn';

/**
 * An API v2 answer: its status and JSON body, or no body at all (an empty 200). Built apart from
 * the response so the controllers and the hot routes (see `HotRoutes`) write the same answer.
 */
export interface ApiReply {
  status: number;
  body?: string;
  /** Headers beyond the usual ones, such as `Connection: close` for a refused upload. */
  headers?: Record<string, string>;
}

/** A go-swagger error: `{"code":..,"message":..}` with the given HTTP status. */
export function apiErrorReply(status: number, code: number, message: string): ApiReply {
  return { status, body: JSON.stringify({ code, message }) };
}

/** A go-swagger string payload (400/500 bodies): a JSON string and a newline. */
export function jsonStringReply(status: number, text: string): ApiReply {
  return { status, body: `${JSON.stringify(text)}\n` };
}

/** A JSON value and a newline, as go-swagger's producer writes it, with 200. */
export function jsonReply(value: unknown): ApiReply {
  return { status: 200, body: `${JSON.stringify(value)}\n` };
}

/** Upstream API v2 answers carry no caching headers; HEAD forbids caching outright. */
export function apiHeaders(res: Response): Response {
  return res.set('Cache-Control', 'no-store');
}

/** Writes an {@link ApiReply} through Express. */
export function sendReply(res: Response, reply: ApiReply): void {
  apiHeaders(res).status(reply.status);
  if (reply.headers) res.set(reply.headers);
  if (reply.body === undefined) res.end();
  else res.type('application/json').send(reply.body);
}

/** A go-swagger error: `{"code":..,"message":..}` with the given HTTP status. */
export function sendApiError(res: Response, status: number, code: number, message: string): void {
  sendReply(res, apiErrorReply(status, code, message));
}

/** A go-swagger string payload (400/500 bodies): a JSON string and a newline. */
export function sendJsonString(res: Response, status: number, text: string): void {
  sendReply(res, jsonStringReply(status, text));
}

/** A JSON value and a newline, as go-swagger's producer writes it. */
export function sendJson(res: Response, value: unknown): void {
  sendReply(res, jsonReply(value));
}

/** A query parameter that is wrong: answered 400 with the message (see {@link sendQueryResult}). */
export class QueryParamError extends Error {}

/** `produce`'s value as JSON, or 400 with its message when a query parameter is wrong. */
export function sendQueryResult(res: Response, produce: () => unknown): void {
  let value: unknown;
  try {
    value = produce();
  } catch (error) {
    if (!(error instanceof QueryParamError)) throw error;
    sendJsonString(res, 400, error.message);
    return;
  }
  sendJson(res, value);
}

/** The query string parameters of a request, decoded as Go's `url.ParseQuery` does. */
export function queryParams(req: Request): URLSearchParams {
  const q = req.originalUrl.indexOf('?');
  return new URLSearchParams(q === -1 ? '' : req.originalUrl.slice(q + 1));
}

/**
 * Writes `pieces` as one response body in chunks of about 64 KiB, waiting when the socket is
 * full. A fast reader drains the socket within the same turn of the event loop, so every 1 MiB
 * the writer also lets the loop run, and a long listing never holds the server up.
 */
export async function streamBody(res: Response, pieces: Iterable<string>): Promise<void> {
  let buffer = '';
  let chunks = 0;
  for (const piece of pieces) {
    buffer += piece;
    if (buffer.length < 65_536) continue;
    const ok = res.write(buffer);
    buffer = '';
    if (!ok) await waitForDrain(res);
    if (++chunks % 16 === 0) await nextTurn();
    if (res.destroyed) return;
  }
  res.end(buffer);
}

function waitForDrain(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
