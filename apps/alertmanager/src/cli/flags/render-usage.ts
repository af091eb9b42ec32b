import type { CommandSpec, FlagSpec } from './flag-spec';

/** Renders `--help` text for the command at `path` (names from the root down). */
export function renderUsage(app: string, root: CommandSpec, path: readonly string[]): string {
  const chain = [root];
  for (const name of path) {
    const next = chain[chain.length - 1].commands?.find((c) => c.name === name);
    if (next) chain.push(next);
  }
  const command = chain[chain.length - 1];
  const argsText = (command.args ?? [])
    .map((a) => (a.required ? `<${a.name}>` : `[<${a.name}>]`) + (a.variadic ? '...' : ''))
    .join(' ');
  const usage = [app, ...chain.slice(1).map((c) => c.name), '[<flags>]'];
  if (command.commands?.length) usage.push('<command> [<args> ...]');
  if (argsText) usage.push(argsText);

  const lines = [`usage: ${usage.join(' ')}`, '', command.help, ''];
  const flags: FlagSpec[] = [
    { name: 'help', short: 'h', kind: 'bool', help: 'Show context-sensitive help.' },
    ...chain.flatMap((c) => c.flags ?? []),
  ];
  lines.push('Flags:', ...table(flags.map((f) => [flagLabel(f), flagHelp(f)])), '');
  if (command.args?.length) {
    lines.push('Args:', ...table(command.args.map((a) => [`<${a.name}>`, a.help])), '');
  }
  if (command.commands?.length) {
    lines.push('Commands:');
    for (const sub of command.commands) {
      lines.push(`  ${sub.name}`, `    ${sub.help}`, '');
    }
  }
  return lines.join('\n');
}

function flagLabel(flag: FlagSpec): string {
  const short = flag.short ? `-${flag.short}, ` : '    ';
  const value = flag.kind === 'bool' ? '' : `=${flag.placeholder ?? flag.name.toUpperCase()}`;
  return `${short}--${flag.name}${value}`;
}

function flagHelp(flag: FlagSpec): string {
  const parts = [flag.help];
  if (flag.values) parts.push(`One of: ${flag.values.join(', ')}.`);
  if (typeof flag.default === 'string') parts.push(`Default: "${flag.default}".`);
  return parts.join(' ');
}

function table(rows: string[][]): string[] {
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  return rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`);
}
