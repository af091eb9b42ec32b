import { GoJsonScanner, type JsonScan } from './go-json-scanner';

/** A request body as received: the raw bytes, or text already decoded. */
export type Body = string | Uint8Array;

/** The bytes of a body as a Buffer, without copying bytes that are already binary. */
export function bytesOf(body: Body): Buffer {
  return typeof body === 'string'
    ? Buffer.from(body, 'utf8')
    : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

/**
 * The message Go's `encoding/json` Decoder gives for the first syntax error in `body`, or
 * undefined when the first JSON value is well-formed (the Decoder ignores what follows it).
 */
export function goJsonSyntaxError(body: Body): string | undefined {
  return scanFirstValue(body).error;
}

/** Scans the first JSON value of `body`: where it ends (in bytes), or Go's message for its error. */
export function scanFirstValue(body: Body): JsonScan {
  return new GoJsonScanner(bytesOf(body)).scan() as JsonScan;
}

/** Whether a body holds nothing but JSON whitespace (Go's Decoder then reports `EOF`). */
export function isBlank(body: Body): boolean {
  if (typeof body === 'string') return body.trim() === '';
  for (const c of body) if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return false;
  return true;
}

/** Parses the first JSON value of `body` as Go's Decoder reads it; throws its syntax message. */
export function parseFirstValue(body: Body): unknown {
  const text = typeof body === 'string' ? body : bytesOf(body).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // JSON.parse also rejects trailing data that Go's Decoder ignores: parse the first value alone.
    const bytes = bytesOf(body);
    const scan = scanFirstValue(bytes);
    if (scan.error !== undefined) throw new SyntaxError(scan.error);
    return JSON.parse(bytes.toString('utf8', 0, scan.end)) as unknown;
  }
}
