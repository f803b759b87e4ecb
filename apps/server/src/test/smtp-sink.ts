// A real SMTP server for the e-mail tests (smtp-server, the SMTP half of nodemailer's project), run
// as a child process by test/mail-server.ts (through tsx). It listens on 127.0.0.1:$SMTP_PORT (0: a free port),
// prints `{"port":N}` once listening, then one JSON line per accepted message with its envelope and
// raw bytes. A recipient whose address starts with "refused" is refused for good (550), as a real
// server refuses an unknown mailbox.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onRcptTo(address, _session, callback) {
    if (address.address.startsWith('refused')) {
      const error = Object.assign(new Error('5.1.1 No such mailbox here'), { responseCode: 550 });
      callback(error);
      return;
    }
    callback();
  },
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const line = JSON.stringify({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null, to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw: Buffer.concat(chunks).toString('base64') });
      process.stdout.write(`${line}\n`, () => callback());
    });
  },
});

server.listen(Number(process.env.SMTP_PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.server.address() as AddressInfo).port })}\n`);
});
// The test worker that started it holds its stdin: when the worker ends, however it ends (vitest
// stops its forks without an exit event), the pipe closes and this server goes with it.
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
