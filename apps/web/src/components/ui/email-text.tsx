import { Fragment } from 'react';

/**
 * An e-mail that may break before its "@" and before each dot when its box is narrow
 * ("verwaltung.|buchhaltung|@bau.|example", never "admin@qa3.exam|ple"), instead of widening its
 * table or being cut mid-word. Hyphens are break points of their own.
 */
export function EmailText({ email }: { email: string }) {
  const parts = email.split(/(?=[@.])/);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}

/** A sentence that may name people by e-mail (a notification): each address breaks as `EmailText` does. */
export function TextWithEmails({ text }: { text: string }) {
  return (
    <>
      {text.split(/(\S+@\S+)/).map((part, index) => (index % 2 === 1 ? <EmailText key={index} email={part} /> : part))}
    </>
  );
}
