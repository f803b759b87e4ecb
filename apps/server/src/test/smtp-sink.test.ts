import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import nodemailer from 'nodemailer';
import { afterAll, describe, expect, it } from 'vitest';

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'smtp-sink.ts');

describe('npm run mail:sink: a person tries e-mail locally', { timeout: 60_000 }, () => {
  // As package.json's script starts it, on a free port; its stdin closed at once, as a terminal's may be.
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, '--print'], { env: { ...process.env, SMTP_PORT: '0' }, stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.end();
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const printed = (pattern: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const look = () => {
        const match = pattern.exec(output);
        if (!match) return;
        child.stdout.off('data', look);
        child.off('exit', ended);
        resolve(match);
      };
      const ended = (code: number | null) => reject(new Error(`The mail sink ended (${code}); it printed: ${output}`));
      child.stdout.on('data', look);
      child.once('exit', ended);
      look();
    });
  afterAll(() => void child.kill('SIGINT'));

  it('stays up after its stdin closes and prints each mail as a person reads it', async () => {
    const port = Number((await printed(/smtp:\/\/127\.0\.0\.1:(\d+) are printed here/))[1]);

    await nodemailer.createTransport(`smtp://127.0.0.1:${port}`).sendMail({
      from: 'SiteBoard <noreply@localhost>',
      to: 'ana@example.com',
      subject: 'You are invited to Harbour Builders',
      text: 'Accept the invitation:\nhttp://localhost:3000/accept-invitation?token=abc',
    });

    await printed(/To: +ana@example\.com\nSubject: You are invited to Harbour Builders\n\nAccept the invitation:\nhttp:\/\/localhost:3000\/accept-invitation\?token=abc/);
    expect(child.exitCode).toBeNull();
  });
});
