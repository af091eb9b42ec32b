import { parseFirstValue, type Body } from './go-json-syntax';

/** A decoding failure in the words of Go's `encoding/json`. */
export class GoDecodeError extends Error {}

/** A JSON value as `JSON.parse` returns it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Parses JSON as Go's Decoder reads a body, throwing Go's syntax message on failure. */
export function parseJsonAsGo(body: Body): Json {
  try {
    return parseFirstValue(body) as Json;
  } catch (error) {
    throw new GoDecodeError((error as Error).message);
  }
}
