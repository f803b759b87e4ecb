/** The rendering process's entry: one request by IPC, one answer back, then it ends. */
import os from 'node:os';
import sharp from 'sharp';
import { runRenderRequest } from './sheets.render';
import { DrawingRefusal, type RenderRequest } from './sheets.render-protocol';

// The server's requests come first: rendering takes what CPU they leave (nice 19), on one libvips
// thread, keeping no decoded images around for another operation.
os.setPriority(19);
sharp.concurrency(1);
sharp.cache(false);

// The server gone (killed, crashed) closes the channel: nobody waits for this page any more, and
// a rendering left running would hold a core and hundreds of MB as an orphan. Its answer sent, the
// process closes the channel itself and ends as it would anyway.
let answered = false;
process.once('disconnect', () => {
  if (!answered) process.exit(1);
});

process.once('message', (request: RenderRequest) => {
  runRenderRequest(request)
    .then(
      (answer) => ({ ok: true, answer }),
      (error: unknown) => ({ ok: false, refusal: error instanceof DrawingRefusal ? error.message : undefined, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    )
    .then((message) => {
      answered = true;
      // The server may have let it go meanwhile (its time limit): then no one waits for the answer.
      if (process.connected) process.send!(message, () => process.disconnect());
    });
});
