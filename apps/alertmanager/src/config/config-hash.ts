import { createHash } from 'node:crypto';

/**
 * Alertmanager's `alertmanager_config_hash` value: the first 6 bytes of the MD5 of the file,
 * read as a little-endian integer (6 bytes so the value is exact as a float64).
 */
export function configHash(content: string | Uint8Array): number {
  return createHash('md5').update(content).digest().readUIntLE(0, 6);
}
