import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import type { FileSdConfig, StaticConfig } from '../config';
import { Labels } from '../tsdb/labels';

/** Targets that share labels, as discovery hands them over: one label set per address. */
export interface TargetGroup {
  /** Where the group came from (`static/0`, or the file it was read from). */
  readonly source: string;
  readonly targets: Labels[];
}

const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** The groups of `static_configs`: each address as `__address__` with the group's labels. */
export function staticGroups(configs: readonly StaticConfig[]): TargetGroup[] {
  return configs.map((config, i) => ({
    source: `static/${i}`,
    targets: config.targets.map((address) =>
      Labels.fromRecord({ ...config.labels, __address__: address }),
    ),
  }));
}

/** A target file that cannot be read; its message names the file. */
export class TargetFileError extends Error {}

/**
 * Reads one `file_sd_configs` file as upstream's file discovery: a JSON (`.json`) or YAML list of
 * `{targets, labels}`, each target with `__meta_filepath` set to the file.
 */
export async function readTargetFile(file: string): Promise<TargetGroup[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new TargetFileError(
      `error reading file ${JSON.stringify(file)}: ${(error as Error).message}`,
    );
  }
  let content: unknown;
  try {
    content = file.toLowerCase().endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new TargetFileError(
      `error parsing file ${JSON.stringify(file)}: ${(error as Error).message}`,
    );
  }
  if (content === null || content === undefined) return [];
  if (!Array.isArray(content))
    throw new TargetFileError(
      `error parsing file ${JSON.stringify(file)}: expected a list of target groups`,
    );
  return content.map((item, i) => {
    if (item === null || typeof item !== 'object') {
      throw new TargetFileError(`nil target group item found in ${JSON.stringify(file)}`);
    }
    const { targets = [], labels = {} } = item as { targets?: unknown; labels?: unknown };
    if (!Array.isArray(targets) || targets.some((t) => typeof t !== 'string')) {
      throw new TargetFileError(`${file}: group ${i}: targets must be a list of strings`);
    }
    const record: Record<string, string> = {};
    for (const [name, value] of Object.entries((labels ?? {}) as Record<string, unknown>)) {
      if (!LABEL_NAME.test(name))
        throw new TargetFileError(`${file}: group ${i}: "${name}" is not a valid label name`);
      record[name] = String(value);
    }
    return {
      source: `${file}:${i}`,
      targets: (targets as string[]).map((address) =>
        Labels.fromRecord({ ...record, __address__: address, __meta_filepath: file }),
      ),
    };
  });
}

/** The files a `file_sd_configs` entry names, its patterns expanded. */
export async function targetFiles(
  config: FileSdConfig,
  glob: (pattern: string) => Promise<string[]>,
): Promise<string[]> {
  const files: string[] = [];
  for (const pattern of config.files)
    for (const file of await glob(pattern)) if (!files.includes(file)) files.push(file);
  return files;
}
