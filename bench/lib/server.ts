import { spawn, type ChildProcess } from 'node:child_process';
import { repoRoot } from './large-database';

/** The real server as a child process on `port`, with the database `env` names; resolves once it answers its health check. */
export async function startServer(env: Record<string, string>, port: number): Promise<ChildProcess> {
  const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      ...env,
      NODE_ENV: 'production',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256-signing',
      // The sweeps would land at random moments inside the measured runs.
      SWEEP_INTERVAL_SECONDS: '86400',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let attempt = 0; attempt < 240; attempt += 1) {
    if (server.exitCode !== null) throw new Error(`The server exited with ${server.exitCode}`);
    const ready = await fetch(`http://127.0.0.1:${port}/api/health/`).then((response) => response.ok, () => false);
    if (ready) return server;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('The server did not become ready in 2 minutes');
}

export function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    server.once('exit', () => resolve());
    server.kill('SIGTERM');
  });
}
