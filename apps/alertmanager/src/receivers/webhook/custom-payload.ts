import { parse } from 'yaml';
import type { RenderText } from '../templating/notification-text';

/**
 * A webhook's custom `payload` rendered as upstream renders it: every string and map key is a
 * template; a rendered string that reads as YAML structure (a map, a list, a number, a boolean,
 * null) becomes that value, taken as final (its strings are not rendered again), any other stays
 * the rendered text.
 */
export function renderCustomPayload(payload: unknown, render: RenderText): unknown {
  if (payload === null || payload === undefined) return payload;
  if (typeof payload === 'string') {
    const text = render(payload);
    let value: unknown;
    try {
      value = parse(text, { version: '1.1' });
    } catch {
      return text;
    }
    return typeof value === 'string' ? text : normalize(value);
  }
  if (Array.isArray(payload)) return payload.map((item) => renderCustomPayload(item, render));
  if (typeof payload === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(payload as Record<string, unknown>)) {
      out[render(key)] = renderCustomPayload(value, render);
    }
    return out;
  }
  return payload;
}

/** A parsed YAML value as JSON can hold it: maps with string keys only, lists, scalars. */
function normalize(value: unknown): unknown {
  if (value === undefined) return null;
  if (Array.isArray(value)) return value.map(normalize);
  if (value instanceof Map) {
    return Object.fromEntries(
      [...value].filter(([k]) => typeof k === 'string').map(([k, v]) => [k, normalize(v)]),
    );
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v)]));
  }
  return value;
}
