import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { loadHttpConfigFile, Secret } from '../config';
import { defaultHttpConfig } from '../config/decoder/http-config.decoder';
import { parseDuration } from '../time/duration';
import { AmtoolError } from './amtool-error';
import type { AmtoolTarget } from './amtool-http';
import { AmtoolHttpClient } from './amtool-http-client';
import { CommandLineError } from './flags/flag-spec';

/** The flags that say how to reach the Alertmanager. */
export interface TargetFlags {
  url: string;
  timeout: string;
  /** `--http.config.file`, '' when not given. */
  httpConfigFile: string;
}

/**
 * kingpin's check of an `ExistingFile` flag such as `--http.config.file`, made for every
 * command as upstream parses it, with its messages.
 */
export function checkExistingFile(path: string): void {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new AmtoolError(`path '${path}' does not exist`);
    }
    throw new AmtoolError((error as Error).message);
  }
  if (isDirectory) throw new AmtoolError(`'${basename(path)}' is a directory`);
}

/**
 * Where and how amtool talks to the Alertmanager. As upstream: user info in the URL is sent as
 * basic auth and cannot be combined with `--http.config.file`, whose load and client errors
 * read `failed to load HTTP config file: ...` and `failed to create a new HTTP client: ...`.
 */
export async function amtoolTarget(flags: TargetFlags): Promise<AmtoolTarget> {
  let timeoutMs: number;
  try {
    timeoutMs = parseDuration(flags.timeout);
  } catch (error) {
    throw new CommandLineError(`invalid --timeout: ${(error as Error).message}`);
  }
  // An unparsable URL is reported by the request that uses it, as before.
  const url = URL.canParse(flags.url) ? new URL(flags.url) : undefined;
  const user = url && (url.username || url.password) ? url : undefined;
  if (user && flags.httpConfigFile) {
    throw new AmtoolError('basic authentication and http.config.file are mutually exclusive');
  }
  let config = defaultHttpConfig();
  if (flags.httpConfigFile) {
    try {
      config = await loadHttpConfigFile(flags.httpConfigFile);
    } catch (error) {
      throw new AmtoolError(`failed to load HTTP config file: ${(error as Error).message}`);
    }
  } else if (user) {
    config.basic_auth = {
      username: decodeURIComponent(user.username),
      password: new Secret(decodeURIComponent(user.password)),
    };
  }
  let client: AmtoolHttpClient;
  try {
    client = await AmtoolHttpClient.fromConfig(config);
  } catch (error) {
    throw new AmtoolError(`failed to create a new HTTP client: ${(error as Error).message}`);
  }
  let baseUrl = flags.url;
  if (user) {
    // The credentials travel in the Authorization header, never in URLs or messages.
    user.username = '';
    user.password = '';
    baseUrl = user.toString();
  }
  return { baseUrl, timeoutMs: timeoutMs || 30_000, client };
}
