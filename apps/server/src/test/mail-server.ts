import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { simpleParser, type ParsedMail } from 'mailparser';

// Not `new URL('./smtp-sink.ts', import.meta.url)`: under the web's tests Vite turns that form into an asset address.
const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'smtp-sink.ts');

export interface ReceivedMail {
  to: string[];
  parsed: ParsedMail;
}

/**
 * A real SMTP server in a child process (test/smtp-sink.ts) and the mails it received, parsed
 * with mailparser. `stop` kills it (the port refuses connections, as a server that is down);
 * `start` brings it back on the same port.
 */
export class MailServer {
  private child: ChildProcessWithoutNullStreams | undefined;
  private parsing: Promise<void>[] = [];
  readonly received: ReceivedMail[] = [];
  port = 0;

  get url() {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT], { env: { ...process.env, SMTP_PORT: String(this.port) }, stdio: 'pipe' });
    this.child = child;
    const lines = createInterface({ input: child.stdout });
    await new Promise<void>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`The SMTP server stopped (${code}) before it listened.`)));
      lines.on('line', (line) => {
        const message = JSON.parse(line) as { port?: number; to?: string[]; raw?: string };
        if (message.port !== undefined) {
          this.port = message.port;
          resolve();
          return;
        }
        this.parsing.push(simpleParser(Buffer.from(message.raw!, 'base64')).then((parsed) => void this.received.push({ to: message.to!, parsed })));
      });
    });
    return this;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    this.child = undefined;
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGKILL');
    });
    await Promise.all(this.parsing);
  }

  /** Every mail received for this address so far. */
  async mailsTo(address: string): Promise<ParsedMail[]> {
    await Promise.all(this.parsing);
    return this.received.filter((mail) => mail.to.includes(address)).map((mail) => mail.parsed);
  }

  /** Waits until `count` mails for the address have arrived (a condition, never a fixed delay), and answers them. */
  async waitForMails(address: string, count = 1, timeoutMs = 20_000): Promise<ParsedMail[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mails = await this.mailsTo(address);
      if (mails.length >= count) return mails;
      if (Date.now() > deadline) throw new Error(`${mails.length} of ${count} mails to ${address} arrived within ${timeoutMs} ms.`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

let shared: Promise<MailServer> | undefined;

/** One SMTP server for every e-mail test file of this worker, started on first use; it ends with the worker. */
export function sharedMailServer(): Promise<MailServer> {
  // The server exits by itself when this worker ends (its stdin closes: test/smtp-sink.ts).
  shared ??= new MailServer().start();
  return shared;
}

/** The link in a mail's text that points at `path` of the web app. */
export function linkIn(mail: ParsedMail, path: string): URL {
  const match = new RegExp(`https?://\\S+${path.replace(/[/?]/g, '\\$&')}\\S*`).exec(mail.text ?? '');
  if (!match) throw new Error(`No ${path} link in: ${mail.text}`);
  return new URL(match[0]);
}
