import { statSync } from 'node:fs';

/** What identifies one version of a file without reading it; injectable for tests. */
export type FileSignature = (path: string) => string;

/**
 * A file's identity and change stamps (inode, size, modification and change times), or its
 * error code when it cannot be stat'ed. A file rewritten in place, replaced by a rename or
 * swapped behind a symbolic link (as mounted Kubernetes secrets are) gets a new signature;
 * one stat costs microseconds, far less than reading and parsing the file.
 */
export const statSignature: FileSignature = (path) => {
  try {
    const s = statSync(path);
    return `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
  } catch (error) {
    return `error:${(error as NodeJS.ErrnoException).code ?? 'unknown'}`;
  }
};
