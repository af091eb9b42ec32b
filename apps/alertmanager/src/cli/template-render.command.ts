import { readFile } from 'node:fs/promises';
import {
  amtoolSampleData,
  loadTemplates,
  TemplateError,
  templateDataFromJson,
  type TemplateDataJson,
} from '../template';
import { AmtoolError } from './amtool-error';
import { CommandLineError, type CommandSpec } from './flags/flag-spec';

/** `template render`, as amtool's (registered under a `template` command). */
export const TEMPLATE_RENDER: CommandSpec = {
  name: 'render',
  help: 'Render a given definition in a template file to standard output.',
  flags: [
    {
      name: 'template.glob',
      kind: 'string',
      repeatable: true,
      placeholder: 'TEMPLATE.GLOB',
      help: 'Glob of paths that will be expanded and used for rendering.',
    },
    {
      name: 'template.text',
      kind: 'string',
      placeholder: 'TEMPLATE.TEXT',
      help: 'The template that will be rendered.',
    },
    {
      name: 'template.type',
      kind: 'enum',
      values: ['text', 'html'],
      default: 'text',
      help: 'The type of the template. Can be either text (default) or html.',
    },
    {
      name: 'template.data',
      kind: 'string',
      placeholder: 'TEMPLATE.DATA',
      help: "Full path to a file which contains the data of the alert(-s) with which the --template.text will be rendered. Must be in JSON, in the layout of Alertmanager's template.Data. If none has been specified then a predefined, simple alert will be used for rendering.",
    },
  ],
};

/** The `template` command that holds `render`. */
export const TEMPLATE_COMMAND: CommandSpec = {
  name: 'template',
  help: 'Render template files.',
  commands: [TEMPLATE_RENDER],
};

/** What `template render` was asked to do. */
export interface TemplateRenderOptions {
  globs: string[];
  text: string;
  type: 'text' | 'html';
  /** Path of a JSON `template.Data` file; empty for amtool's sample data. */
  dataFile: string;
  /** The current time (the sample data's times, `since`). */
  now: number;
}

/**
 * Renders `--template.text` with the default templates and the `--template.glob` files,
 * against `--template.data` or amtool's sample data, and prints the result. Errors (a template
 * that does not parse or execute, unreadable data) are an {@link AmtoolError}; a missing
 * `--template.glob` or `--template.text` a {@link CommandLineError}.
 */
export async function runTemplateRender(
  options: TemplateRenderOptions,
  out: (line: string) => void,
): Promise<number> {
  // Both flags are required in amtool; the flag parser has no required flags, so check here.
  if (options.globs.length === 0)
    throw new CommandLineError('required flag --template.glob not provided');
  if (!options.text) throw new CommandLineError('required flag --template.text not provided');
  let json: TemplateDataJson = amtoolSampleData(options.now);
  if (options.dataFile) {
    try {
      json = JSON.parse(await readFile(options.dataFile, 'utf8')) as TemplateDataJson;
    } catch (err) {
      throw new AmtoolError(`failed to read template data: ${(err as Error).message}`);
    }
  }
  try {
    const templates = await loadTemplates(options.globs);
    out(
      templates.render(options.text, templateDataFromJson(json), {
        now: options.now,
        mode: options.type,
      }),
    );
  } catch (err) {
    if (err instanceof TemplateError) throw new AmtoolError(err.message);
    throw err;
  }
  return 0;
}
