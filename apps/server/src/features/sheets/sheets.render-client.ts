/**
 * How the server has a drawing rendered: in a process of its own (sheets.render-process.ts), so the
 * server loads none of the rendering's libraries (sharp, pdf-lib, PDF.js) and spends none of its CPU.
 */
import { fork } from 'node:child_process';
import { entryFile } from '../../platform';
import { DrawingRefusal, type RenderAnswer, type RenderRequest } from './sheets.render-protocol';

/**
 * Runs one request in a process of its own, which ends with it: its memory (a page's raster)
 * is never the server's, and stopping it mid-page is safe (a native canvas is not, on a
 * terminated thread). The signal ends it early. A refusal of the file rejects with a DrawingRefusal.
 */
export function onRenderProcess<Answer extends RenderAnswer>(request: RenderRequest, signal?: AbortSignal): Promise<Answer> {
  if (signal?.aborted) return Promise.reject(stoppedBy(signal));
  const entry = entryFile(import.meta.url, { source: 'sheets.render-process.ts', compiled: 'sheets-render', env: 'SITEBOARD_SHEETS_RENDER_FILE' });
  const child = fork(entry.file, [], { execArgv: entry.execArgv, serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise<Answer>((resolve, reject) => {
    const abort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', abort, { once: true });
    let settled = false;
    child.once('message', (message: { ok: true; answer: Answer } | { ok: false; refusal?: string; error: string }) => {
      settled = true;
      if (message.ok) resolve(message.answer);
      else reject(message.refusal ? new DrawingRefusal(message.refusal) : new Error(message.error));
    });
    child.on('error', (error) => {
      settled = true;
      reject(error);
    });
    child.once('exit', (code, exitSignal) => {
      signal?.removeEventListener('abort', abort);
      if (!settled) reject(signal?.aborted ? stoppedBy(signal) : new Error(`The rendering process ended with ${exitSignal ?? `code ${code}`}.`));
    });
    child.send(request);
  });
}

/** Why a rendering was stopped: the signal's reason (the server stopping, the job's time limit). */
function stoppedBy(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('Rendering stopped: the server is stopping.');
}
