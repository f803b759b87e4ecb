/** The rendering process's entry: one request by IPC, one answer back, then it ends. */
import { DrawingRefusal, runRenderRequest, type RenderRequest } from './sheets.render';

process.once('message', (request: RenderRequest) => {
  runRenderRequest(request)
    .then(
      (answer) => ({ ok: true, answer }),
      (error: unknown) => ({ ok: false, refusal: error instanceof DrawingRefusal ? error.message : undefined, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    )
    .then((message) => process.send!(message, () => process.disconnect()));
});
