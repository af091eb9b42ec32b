const UNIT_PREFIXES = ['', 'K', 'M', 'G', 'T', 'P', 'E'];

/**
 * A byte count as Prometheus prints a size (`units.Base2Bytes`): `0B`, `512MiB`, `1GiB512MiB`;
 * the retention size in `/api/v1/status/runtimeinfo` and `/api/v1/status/flags` reads so.
 */
export function formatBase2Bytes(bytes: number): string {
  let n = BigInt(Math.trunc(bytes));
  const parts: string[] = [];
  for (const [i, prefix] of UNIT_PREFIXES.entries()) {
    const rest = n % 1024n;
    if (rest !== 0n || (i === 0 && n === 0n))
      parts.unshift(`${rest}${prefix}${i === 0 ? 'B' : 'iB'}`);
    n /= 1024n;
    if (n === 0n) break;
  }
  return parts.join('');
}
