import type { AmtoolTarget } from './amtool-http';
import type { ParsedCommandLine } from './flags/flag-spec';
import { CommandLineError } from './flags/flag-spec';
import { runSilenceAdd } from './silence-add.command';
import { runSilenceImport } from './silence-import.command';
import { runSilenceQuery } from './silence-query.command';
import { runSilenceExpire, runSilenceUpdate } from './silence-update.command';

const str = (parsed: ParsedCommandLine, name: string) =>
  (parsed.flags[name] as string | undefined) ?? '';
const bool = (parsed: ParsedCommandLine, name: string) => parsed.flags[name] === true;
const list = (value: unknown) => (value as string[] | undefined) ?? [];

/** Runs `silence <sub>` from the parsed command line; resolves with the exit code. */
export function runSilenceCommand(
  sub: string,
  parsed: ParsedCommandLine,
  target: AmtoolTarget,
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  const output = str(parsed, 'output');
  const dateFormat = str(parsed, 'date.format');
  switch (sub) {
    case 'add':
      return runSilenceAdd(
        target,
        {
          matchers: list(parsed.args['matcher-groups']),
          author: str(parsed, 'author'),
          requireComment: bool(parsed, 'require-comment'),
          duration: str(parsed, 'duration'),
          start: str(parsed, 'start'),
          end: str(parsed, 'end'),
          comment: str(parsed, 'comment'),
        },
        out,
      );
    case 'query':
      return runSilenceQuery(
        target,
        {
          matchers: list(parsed.args['matcher-groups']),
          expired: bool(parsed, 'expired'),
          quiet: bool(parsed, 'quiet'),
          createdBy: str(parsed, 'created-by'),
          within: str(parsed, 'within'),
          output,
          dateFormat,
        },
        out,
      );
    case 'expire':
      return runSilenceExpire(target, list(parsed.args['silence-ids']));
    case 'update':
      return runSilenceUpdate(
        target,
        {
          ids: list(parsed.args['update-ids']),
          quiet: bool(parsed, 'quiet'),
          duration: str(parsed, 'duration'),
          start: str(parsed, 'start'),
          end: str(parsed, 'end'),
          comment: str(parsed, 'comment'),
          output,
          dateFormat,
        },
        out,
      );
    case 'import': {
      const workers = Number(str(parsed, 'worker'));
      if (!Number.isInteger(workers) || workers < 1) {
        throw new CommandLineError(`invalid --worker: ${str(parsed, 'worker')}`);
      }
      const file = (parsed.args['input-file'] as string | undefined) ?? '';
      return runSilenceImport(target, { file, force: bool(parsed, 'force'), workers }, out, err);
    }
    default:
      throw new CommandLineError(`unknown command "silence ${sub}"`);
  }
}
