import { DurationParseError, parseDuration } from '../../time/duration';

/** A number literal that Go's number parsing refuses. */
export class NumberSyntaxError extends Error {}

/**
 * A number token's value as upstream reads it: an integer in Go's syntax first (`0x1f`, `017`
 * octal, `1_000`), else a float (`1.5e3`, `.5`, `Inf`, `NaN`), else a duration in seconds (`5m` is
 * 300). The sign is not part of the token.
 */
export function parseNumberToken(text: string): number {
  const integer = goInteger(text);
  if (integer !== undefined) return integer;
  const float = goFloat(text);
  if (float !== undefined) return float;
  try {
    return parseDuration(text) / 1000;
  } catch (error) {
    if (error instanceof DurationParseError) throw new NumberSyntaxError(error.message);
    throw error;
  }
}

/** Whether the token is a duration (`5m`) rather than a number. */
export function isDurationToken(text: string): boolean {
  return /^(\d+(y|w|d|h|ms|m|s))+$/.test(text);
}

function goInteger(text: string): number | undefined {
  const clean = underscoresOk(text) ? text.replace(/_/g, '') : undefined;
  if (clean === undefined) return undefined;
  if (/^0[xX][0-9a-fA-F]+$/.test(clean)) return Number(BigInt(clean));
  if (/^0[oO]?[0-7]+$/.test(clean)) return Number(BigInt('0o' + clean.replace(/^0[oO]?/, '')));
  if (/^0[bB][01]+$/.test(clean)) return Number(BigInt(clean));
  if (/^[1-9]\d*$|^0$/.test(clean)) {
    const value = BigInt(clean);
    // Out of int64 range: Go's ParseInt fails and ParseFloat takes over.
    if (value >= 2n ** 63n) return undefined;
    return Number(value);
  }
  return undefined;
}

function goFloat(text: string): number | undefined {
  const lower = text.toLowerCase();
  if (['inf', '+inf', 'infinity', '+infinity'].includes(lower)) return Infinity;
  if (['-inf', '-infinity'].includes(lower)) return -Infinity;
  if (lower === 'nan') return NaN;
  if (!underscoresOk(text)) return undefined;
  const clean = text.replace(/_/g, '');
  if (/^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(clean)) {
    const value = Number(clean);
    if (!Number.isFinite(value)) {
      throw new NumberSyntaxError(`strconv.ParseFloat: parsing "${text}": value out of range`);
    }
    return value;
  }
  if (/^0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?\d+$/.test(clean)) {
    return hexFloat(clean);
  }
  return undefined;
}

/** Go allows `_` only between digits (or after a base prefix). */
function underscoresOk(text: string): boolean {
  if (!text.includes('_')) return true;
  return !/(^_|_$|__|_\.|\._|_[eEpP]|[eEpP]_)/.test(text.replace(/^0[xXoObB]_/, '0x0'));
}

function hexFloat(text: string): number {
  const [mantissa, exponent] = text.slice(2).split(/[pP]/);
  const [whole, fraction = ''] = mantissa.split('.');
  const digits = parseInt((whole || '0') + fraction, 16);
  return digits * 2 ** (Number(exponent) - 4 * fraction.length);
}
