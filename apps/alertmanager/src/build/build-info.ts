import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What `--version` prints and `alertmanager_build_info` carries. */
export interface BuildInfo {
  name: string;
  version: string;
  nodeVersion: string;
}

let cached: BuildInfo | undefined;

/** Reads the package's own manifest once; the same relative path works from `src/` and `dist/`. */
export function buildInfo(): BuildInfo {
  if (!cached) {
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));
    cached = { name: manifest.name, version: manifest.version, nodeVersion: process.version };
  }
  return cached;
}

/** The `--version` text, in the shape of Alertmanager's. */
export function versionText(program: string): string {
  const info = buildInfo();
  return `${program}, version ${info.version} (package: ${info.name})\n  node version: ${info.nodeVersion}\n`;
}
