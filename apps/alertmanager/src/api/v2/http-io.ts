import type { Request, Response } from 'express';

/** Upstream API v2 answers carry no caching headers; HEAD forbids caching outright. */
export function apiHeaders(res: Response): Response {
  return res.set('Cache-Control', 'no-store');
}

/** A go-swagger error: `{"code":..,"message":..}` with the given HTTP status. */
export function sendApiError(res: Response, status: number, code: number, message: string): void {
  apiHeaders(res).status(status).type('application/json').send(JSON.stringify({ code, message }));
}

/** A go-swagger string payload (400/500 bodies): a JSON string and a newline. */
export function sendJsonString(res: Response, status: number, text: string): void {
  apiHeaders(res)
    .status(status)
    .type('application/json')
    .send(`${JSON.stringify(text)}\n`);
}

/** A JSON value and a newline, as go-swagger's producer writes it. */
export function sendJson(res: Response, value: unknown): void {
  apiHeaders(res)
    .status(200)
    .type('application/json')
    .send(`${JSON.stringify(value)}\n`);
}

/** The query string parameters of a request, decoded as Go's `url.ParseQuery` does. */
export function queryParams(req: Request): URLSearchParams {
  const q = req.originalUrl.indexOf('?');
  return new URLSearchParams(q === -1 ? '' : req.originalUrl.slice(q + 1));
}

/**
 * The request body as text. Reads the stream itself so bodies of any size and malformed JSON reach
 * the handler (the app must be created with `bodyParser: false`); falls back to what a body
 * parser left behind when one ran anyway.
 */
export async function readBody(req: Request): Promise<string> {
  const parsed = req as Request & { rawBody?: Buffer };
  if (parsed.rawBody) return parsed.rawBody.toString('utf8');
  if (req.readableEnded) return req.body === undefined ? '' : JSON.stringify(req.body);
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Whether the request's content type is JSON (or not given, which we accept). */
export function isJsonRequest(req: Request): boolean {
  const type = req.headers['content-type'];
  if (type === undefined || type === '') return true;
  return type.split(';')[0].trim().toLowerCase() === 'application/json';
}

/** Writes `pieces` as one response body in chunks of about 64 KiB, waiting when the socket is full. */
export async function streamBody(res: Response, pieces: Iterable<string>): Promise<void> {
  let buffer = '';
  for (const piece of pieces) {
    buffer += piece;
    if (buffer.length < 65_536) continue;
    const ok = res.write(buffer);
    buffer = '';
    if (!ok) await waitForDrain(res);
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
