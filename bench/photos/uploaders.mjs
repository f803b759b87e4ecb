// The busy phases' uploaders of bench:photos, in a process of their own: building and sending
// 4 MB forms would otherwise delay the measuring process's own reads, and the p99 would count
// the benchmark's event loop instead of the server. Started by photo-bench.ts with IPC, paused:
// 'resume' starts the uploads without pause, 'pause' stops them and answers 'paused' once every
// upload in flight has its answer; 'stop' ends them and reports how many photos were stored.
import fs from 'node:fs';

const { origin, token, subtaskId, photoPath, uploaders } = JSON.parse(process.argv[2]);
const photo = new Blob([fs.readFileSync(photoPath)], { type: 'image/jpeg' });
let state = 'paused';
let uploaded = 0;
let resumed;
let wake = () => {};
const pausedLoops = new Set();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const reportIfPaused = () => {
  if (state === 'pausing' && pausedLoops.size === uploaders) {
    state = 'paused';
    process.send('paused');
  }
};

process.on('message', (message) => {
  if (message === 'resume') {
    state = 'running';
    wake();
  } else if (message === 'pause') {
    state = 'pausing';
    reportIfPaused();
  } else if (message === 'stop') {
    state = 'stopped';
    wake();
  }
});

async function uploadWhileRunning(loop) {
  for (;;) {
    while (state !== 'running' && state !== 'stopped') {
      pausedLoops.add(loop);
      reportIfPaused();
      resumed ??= new Promise((resolve) => (wake = () => ((resumed = undefined), resolve())));
      await resumed;
    }
    pausedLoops.delete(loop);
    if (state === 'stopped') return;
    const form = new FormData();
    form.append('file', photo, 'IMG_0001.JPG');
    const response = await fetch(`${origin}/api/subtasks/${subtaskId}/attachments/`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    await response.arrayBuffer();
    if (response.status === 201) uploaded++;
    // A 503 says when to come back.
    else if (response.status === 503) await sleep(Number(response.headers.get('retry-after') ?? 1) * 1000);
    else throw new Error(`upload during reads: ${response.status}`);
  }
}

Promise.all(Array.from({ length: uploaders }, (_, loop) => uploadWhileRunning(loop))).then(
  () => process.send({ uploaded }, () => process.exit(0)),
  (error) => process.send({ error: String(error) }, () => process.exit(1)),
);
