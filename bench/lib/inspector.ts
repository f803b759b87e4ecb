import http from 'node:http';
import WebSocket from 'ws';

/**
 * A minimal Chrome DevTools Protocol client for the server process (started with
 * `--inspect=127.0.0.1:<port>`): forces a full GC before memory readings, reads the V8 heap
 * size, and optionally records a CPU profile of the load phase.
 */
export interface Inspector {
  collectGarbage(): Promise<void>;
  heapUsedBytes(): Promise<number>;
  /** What the process holds live now, in heap objects and buffers (`process.memoryUsage()`'s heapUsed + arrayBuffers). */
  liveBytes(): Promise<number>;
  startProfile(): Promise<void>;
  stopProfile(): Promise<unknown>;
  close(): void;
}

function getJson(url: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => {
          try {
            resolve(JSON.parse(body));
          } catch (error) {
            reject(error);
          }
        });
      })
      .on('error', reject);
  });
}

export async function connectInspector(port: number): Promise<Inspector> {
  const targets = (await getJson(`http://127.0.0.1:${port}/json/list`)) as { webSocketDebuggerUrl: string }[];
  const socket = new WebSocket(targets[0].webSocketDebuggerUrl, { perMessageDeflate: false, maxPayload: 1024 * 1024 * 1024 });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let nextId = 1;
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message: string } };
    if (message.id === undefined) return;
    const waiter = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.error) waiter?.reject(new Error(message.error.message));
    else waiter?.resolve(message.result);
  });
  const call = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });
  await call('HeapProfiler.enable');
  await call('Runtime.enable');
  return {
    async collectGarbage() {
      await call('HeapProfiler.collectGarbage');
      await call('HeapProfiler.collectGarbage');
    },
    async heapUsedBytes() {
      const usage = (await call('Runtime.getHeapUsage')) as { usedSize: number };
      return usage.usedSize;
    },
    async liveBytes() {
      const answer = (await call('Runtime.evaluate', { expression: '(() => { const usage = process.memoryUsage(); return usage.heapUsed + usage.arrayBuffers; })()', returnByValue: true })) as {
        result: { value: number };
      };
      return answer.result.value;
    },
    async startProfile() {
      await call('Profiler.enable');
      await call('Profiler.setSamplingInterval', { interval: 500 });
      await call('Profiler.start');
    },
    async stopProfile() {
      return ((await call('Profiler.stop')) as { profile: unknown }).profile;
    },
    close() {
      socket.terminate();
    },
  };
}
