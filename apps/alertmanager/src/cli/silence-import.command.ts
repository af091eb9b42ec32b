import { readFile } from 'node:fs/promises';
import { AmtoolError } from './amtool-error';
import { callApi, type AmtoolTarget } from './amtool-http';
import type { ListedSilence } from './silence-output';
import { postable } from './silence-update.command';

/** The options of `silence import`. */
export interface SilenceImportOptions {
  /** The file written by `silence query -o json`; empty reads standard input. */
  file: string;
  force: boolean;
  workers: number;
}

async function readInput(file: string): Promise<string> {
  if (file !== '') return readFile(file, 'utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * `amtool silence import`: posts every silence of a `silence query -o json` array with
 * `--worker` requests in flight, printing each resulting id. With `--force` the ids are dropped,
 * so new silences are created. Failures are printed and counted; any failure exits 1.
 */
export async function runSilenceImport(
  target: AmtoolTarget,
  options: SilenceImportOptions,
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  let silences: ListedSilence[];
  try {
    silences = JSON.parse(await readInput(options.file)) as ListedSilence[];
  } catch (error) {
    throw new AmtoolError(
      `couldn't unmarshal input data, is it JSON?: ${(error as Error).message}`,
    );
  }
  if (!Array.isArray(silences)) throw new AmtoolError("couldn't unmarshal input data, is it JSON?");
  let next = 0;
  let failed = 0;
  const worker = async () => {
    while (next < silences.length) {
      const silence = silences[next++];
      try {
        const answer = (await callApi(target, {
          method: 'POST',
          path: '/silences',
          operation: 'postSilences',
          body: postable(silence, !options.force),
        })) as { silenceID: string };
        out(answer.silenceID);
      } catch (error) {
        failed++;
        err(`Error adding silence id='${silence.id}': ${(error as Error).message}`);
      }
    }
  };
  const workers = Math.max(1, Math.min(options.workers, silences.length));
  await Promise.all(Array.from({ length: workers }, worker));
  if (failed > 0) {
    throw new AmtoolError(`couldn't import ${failed} out of ${silences.length} silences`);
  }
  return 0;
}
