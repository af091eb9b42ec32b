import { spawnSync } from 'node:child_process';

/**
 * Where the command `name` is installed, '' when it is not (the specs that compare with it are
 * skipped, saying so). A failure to look at all is an error that names it, not a skip.
 */
export function installedCommand(name: string): string {
  const result = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  if (result.error) throw new Error(`could not look for ${name}: ${result.error.message}`);
  return result.stdout.trim();
}
