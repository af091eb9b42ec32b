/** One command-line flag, in the style of Alertmanager's (kingpin) flags. */
export interface FlagSpec {
  /** Long name without dashes, e.g. `config.file`. */
  name: string;
  /** Optional one-letter alias, e.g. `o` for `-o`. */
  short?: string;
  help: string;
  /** `bool` flags take no value (`--x`, `--no-x`); the others need one. */
  kind: 'string' | 'bool' | 'enum';
  /** Allowed values of an `enum` flag. */
  values?: readonly string[];
  default?: string | boolean;
  /** Placeholder shown in help, e.g. `FILE`. */
  placeholder?: string;
  /** A repeatable flag collects every occurrence into a list. */
  repeatable?: boolean;
  /** Like `--version`: the program prints and exits, so no command or argument is required. */
  exits?: boolean;
}

/** A positional argument of a command. */
export interface ArgSpec {
  name: string;
  help: string;
  required?: boolean;
  /** Takes every remaining positional token. */
  variadic?: boolean;
}

/** A command (or the application itself, the root of the tree). */
export interface CommandSpec {
  name: string;
  help: string;
  flags?: readonly FlagSpec[];
  args?: readonly ArgSpec[];
  commands?: readonly CommandSpec[];
  /** The subcommand taken when none is named. */
  defaultCommand?: string;
}

/** Values after parsing: flags by long name, args by name, and the chosen command path. */
export interface ParsedCommandLine {
  /** Command names from the root down, e.g. `['silence', 'add']`; empty for the root. */
  command: string[];
  flags: Record<string, string | boolean | string[] | undefined>;
  args: Record<string, string | string[] | undefined>;
  /** True when `--help` (or `-h`) was given. */
  help: boolean;
}

/** A user mistake on the command line; the message is printed as `<app>: error: <message>`. */
export class CommandLineError extends Error {
  override readonly name = 'CommandLineError';
}
