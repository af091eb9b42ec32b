import {
  CommandLineError,
  type CommandSpec,
  type FlagSpec,
  type ParsedCommandLine,
} from './flag-spec';

/**
 * Parses argv the way kingpin (Alertmanager's flag library) does: tokens are read left to right,
 * a bare word names a subcommand of the current command while one exists and no argument was
 * taken yet, flags of the root and of every command on the path are accepted anywhere after it,
 * `--name=value` and `--name value` both work, `--` ends flag parsing.
 */
export function parseCommandLine(root: CommandSpec, argv: readonly string[]): ParsedCommandLine {
  const path: CommandSpec[] = [root];
  const flags: ParsedCommandLine['flags'] = {};
  const positionals: string[] = [];
  let help = false;
  let flagsEnded = false;

  const findFlag = (match: (flag: FlagSpec) => boolean): FlagSpec | undefined => {
    for (let i = path.length - 1; i >= 0; i--) {
      const found = path[i].flags?.find(match);
      if (found) return found;
    }
    return undefined;
  };

  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (!flagsEnded && token === '--') {
      flagsEnded = true;
    } else if (!flagsEnded && (token === '--help' || token === '-h')) {
      help = true;
    } else if (!flagsEnded && token.startsWith('--')) {
      const eq = token.indexOf('=');
      const name = eq === -1 ? token.slice(2) : token.slice(2, eq);
      const inline = eq === -1 ? undefined : token.slice(eq + 1);
      const negated = name.startsWith('no-')
        ? findFlag((f) => f.name === name.slice(3))
        : undefined;
      if (negated && negated.kind === 'bool' && inline === undefined) {
        flags[negated.name] = false;
        continue;
      }
      const flag = findFlag((f) => f.name === name);
      if (!flag) throw new CommandLineError(`unknown long flag '--${name}'`);
      i = readFlagValue(flag, inline, argv, i, flags, `--${name}`);
    } else if (!flagsEnded && token.startsWith('-') && token.length > 1) {
      const short = token[1];
      const flag = findFlag((f) => f.short === short);
      if (!flag) throw new CommandLineError(`unknown short flag '-${short}'`);
      const rest = token.slice(2);
      const inline = rest === '' ? undefined : rest.replace(/^=/, '');
      i = readFlagValue(flag, inline, argv, i, flags, `-${short}`);
    } else {
      const current = path[path.length - 1];
      const sub =
        positionals.length === 0 ? current.commands?.find((c) => c.name === token) : undefined;
      if (sub) path.push(sub);
      else positionals.push(token);
    }
  }

  const exiting = help || path.some((c) => c.flags?.some((f) => f.exits && flags[f.name] === true));
  let command = path[path.length - 1];
  if (exiting) {
    for (const spec of path) applyDefaults(spec.flags ?? [], flags);
    return { command: path.slice(1).map((c) => c.name), flags, args: {}, help };
  }
  if (command.commands?.length && positionals.length === 0) {
    const fallback = command.commands.find((c) => c.name === command.defaultCommand);
    if (!fallback) throw new CommandLineError(`command not specified`);
    path.push(fallback);
    command = fallback;
  } else if (command.commands?.length && positionals.length > 0 && !command.args?.length) {
    throw new CommandLineError(`expected command but got "${positionals[0]}"`);
  }

  for (const spec of path) applyDefaults(spec.flags ?? [], flags);
  const args = assignArgs(command, positionals);
  return { command: path.slice(1).map((c) => c.name), flags, args, help };
}

function readFlagValue(
  flag: FlagSpec,
  inline: string | undefined,
  argv: readonly string[],
  index: number,
  flags: ParsedCommandLine['flags'],
  shown: string,
): number {
  if (flag.kind === 'bool') {
    if (inline === undefined) flags[flag.name] = true;
    else if (inline === 'true' || inline === 'false') flags[flag.name] = inline === 'true';
    else throw new CommandLineError(`strconv.ParseBool: parsing "${inline}": invalid syntax`);
    return index;
  }
  let value = inline;
  let next = index;
  if (value === undefined) {
    if (index + 1 >= argv.length)
      throw new CommandLineError(`expected argument for flag '${shown}'`);
    next = index + 1;
    value = argv[next];
  }
  if (flag.kind === 'enum' && flag.values && !flag.values.includes(value)) {
    throw new CommandLineError(
      `enum value must be one of ${flag.values.join(',')}, got '${value}'`,
    );
  }
  if (flag.repeatable) {
    const list = (flags[flag.name] as string[] | undefined) ?? [];
    flags[flag.name] = [...list, value];
  } else {
    flags[flag.name] = value;
  }
  return next;
}

function applyDefaults(specs: readonly FlagSpec[], flags: ParsedCommandLine['flags']): void {
  for (const spec of specs) {
    if (flags[spec.name] !== undefined) continue;
    if (spec.repeatable) flags[spec.name] = [];
    else if (spec.default !== undefined) flags[spec.name] = spec.default;
    else if (spec.kind === 'bool') flags[spec.name] = false;
  }
}

function assignArgs(command: CommandSpec, positionals: string[]): ParsedCommandLine['args'] {
  const args: ParsedCommandLine['args'] = {};
  const specs = command.args ?? [];
  let next = 0;
  for (const spec of specs) {
    if (spec.variadic) {
      args[spec.name] = positionals.slice(next);
      if (spec.required && next >= positionals.length) {
        throw new CommandLineError(`required argument '${spec.name}' not provided`);
      }
      next = positionals.length;
    } else if (next < positionals.length) {
      args[spec.name] = positionals[next++];
    } else if (spec.required) {
      throw new CommandLineError(`required argument '${spec.name}' not provided`);
    }
  }
  if (next < positionals.length) {
    throw new CommandLineError(`unexpected ${positionals[next]}`);
  }
  return args;
}
