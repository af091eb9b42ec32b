/**
 * The Node flags that the server's bin starts Node with, read from its shell line
 * (`... exec node <flags> "$0" "$@"`). The build writes the server's code caches under the same
 * flags, since V8 refuses a cache made under other flags. A flag whose value the shell computes
 * (`--v8-pool-size`, from the cores) is left out: it sizes Node's threads, not V8's code, and a
 * spec checks that the caches are accepted with it.
 */
export function launcherNodeFlags(binText: string): string[] {
  const line = binText.split('\n')[1] ?? '';
  const exec = /\bexec node((?: --[a-z0-9-]+(?:=[^\s"']+)?)*) "\$0" "\$@"$/.exec(line);
  if (!line.startsWith('// ') || !exec) {
    throw new Error(
      `the bin's second line is not its launcher ("exec node <flags> "$0" "$@""): ${line}`,
    );
  }
  return exec[1].split(' ').filter((flag) => flag !== '' && !flag.includes('$'));
}
