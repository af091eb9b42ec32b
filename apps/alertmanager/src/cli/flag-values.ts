import { parseDuration } from '../time/duration';
import { parseGoDuration } from '../time/go-duration';
import { CommandLineError, type ParsedCommandLine } from './flags/flag-spec';

// The server's flag values read and checked: a malformed one is a command-line error.

/** A duration flag's value in ms; zero or a malformed value is a command-line error. */
export function positiveDuration(parsed: ParsedCommandLine, name: string): number {
  const text = parsed.flags[name] as string;
  let ms: number;
  try {
    ms = parseDuration(text);
  } catch (error) {
    throw new CommandLineError(
      `invalid value "${text}" for flag --${name}: ${(error as Error).message}`,
    );
  }
  if (ms <= 0)
    throw new CommandLineError(`invalid value "${text}" for flag --${name}: must be positive`);
  return ms;
}

/** A duration flag where zero or a negative value means "none" (returned as 0). */
export function durationOrZero(parsed: ParsedCommandLine, name: string): number {
  const text = parsed.flags[name] as string;
  try {
    // A Go duration (`1m30s`), as kingpin reads it.
    return Math.max(0, parseGoDuration(text));
  } catch (error) {
    throw new CommandLineError(
      `invalid value "${text}" for flag --${name}: ${(error as Error).message}`,
    );
  }
}

/** An integer flag's value; zero or negative means "no limit" and is returned as 0. */
export function integer(parsed: ParsedCommandLine, name: string): number {
  const text = parsed.flags[name] as string;
  if (!/^[+-]?\d+$/.test(text)) {
    throw new CommandLineError(`invalid value "${text}" for flag --${name}: not an integer`);
  }
  return Math.max(0, Number(text));
}

/** An integer flag that must be at least 1. */
export function positiveInteger(parsed: ParsedCommandLine, name: string): number {
  const text = parsed.flags[name] as string;
  const value = integer(parsed, name);
  if (value < 1 || !Number.isSafeInteger(value)) {
    throw new CommandLineError(`invalid value "${text}" for flag --${name}: must be positive`);
  }
  return value;
}

/** `--rules.datasource.url`: empty for none, else an http(s) URL. */
export function datasourceUrl(text: string | undefined): string | undefined {
  if (!text) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CommandLineError(
      `invalid value "${text}" for flag --rules.datasource.url: not a URL`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CommandLineError(
      `invalid value "${text}" for flag --rules.datasource.url: scheme must be http or https`,
    );
  }
  return text;
}
