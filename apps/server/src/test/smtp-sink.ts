// A real SMTP server (smtp-server, the SMTP half of nodemailer's project), in two uses.
//
// The e-mail tests run it as a child process of test/mail-server.ts (through tsx). It listens on
// 127.0.0.1:$SMTP_PORT (0: a free port), prints `{"port":N}` once listening, then one JSON line per
// accepted message with its envelope and raw bytes.
//
// `npm run mail:sink` (`--print`) is for a person trying e-mail locally (README, "Trying e-mail
// locally"): it listens on $SMTP_PORT (2525 by default), prints each mail as a person reads it
// (from, to, subject, text with its links) and stays up until Ctrl-C.
//
// Either way, a recipient whose address starts with "refused" is refused for good (550), as a real
// server refuses an unknown mailbox.
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

const forPerson = process.argv.includes('--print');

interface Received {
  from: string | null;
  to: string[];
  raw: Buffer;
}

async function printForPerson(mail: Received) {
  const parsed = await simpleParser(mail.raw);
  process.stdout.write(
    [`─── Mail at ${new Date().toISOString()}`, `From:    ${mail.from ?? '(none)'}`, `To:      ${mail.to.join(', ')}`, `Subject: ${parsed.subject ?? ''}`, '', (parsed.text ?? '').trimEnd(), '', ''].join('\n'),
  );
}

const writeForTest = (mail: Received) =>
  new Promise<void>((resolve) => process.stdout.write(`${JSON.stringify({ from: mail.from, to: mail.to, raw: mail.raw.toString('base64') })}\n`, () => resolve()));

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
      const mail = { from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null, to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw: Buffer.concat(chunks) };
      (forPerson ? printForPerson(mail) : writeForTest(mail)).then(
        () => callback(),
        (error: Error) => callback(error),
      );
    });
  },
});

server.listen(Number(process.env.SMTP_PORT ?? (forPerson ? 2525 : 0)), '127.0.0.1', () => {
  const { port } = server.server.address() as AddressInfo;
  if (forPerson) {
    process.stdout.write(`Mails sent to smtp://127.0.0.1:${port} are printed here (none is delivered). Start SiteBoard with:\n`);
    process.stdout.write(`  SMTP_URL=smtp://127.0.0.1:${port} PUBLIC_URL=http://localhost:3000 npm start\nStop with Ctrl-C.\n\n`);
  } else {
    process.stdout.write(`${JSON.stringify({ port })}\n`);
  }
});
server.on('error', (error) => {
  console.error(`The mail sink could not listen: ${error.message}`);
  process.exit(1);
});

if (!forPerson) {
  // The test worker that started it holds its stdin: when the worker ends, however it ends (vitest
  // stops its forks without an exit event), the pipe closes and this server goes with it.
  process.stdin.on('end', () => process.exit(0));
  process.stdin.resume();
}
