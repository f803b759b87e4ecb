import { Fragment } from 'react';

/**
 * An e-mail that may break before its "@" and before each dot of its domain when its column is
 * narrow ("admin@qa3.|example.com", never "admin@qa3.exam|ple"), instead of widening the table.
 */
export function EmailText({ email }: { email: string }) {
  const at = email.indexOf('@');
  if (at <= 0) return email;
  const [first, ...rest] = email.slice(at).split('.');
  return (
    <>
      {email.slice(0, at)}
      <wbr />
      {first}
      {rest.map((part, index) => (
        <Fragment key={index}>
          <wbr />.{part}
        </Fragment>
      ))}
    </>
  );
}
