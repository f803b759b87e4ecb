import { EmailText } from './email-text';

/** An address this short ("manager1@example.com") fits any column of a laptop's table on one line. */
const SHORT_EMAIL = 24;

/**
 * A person as screens show them: their full name with the e-mail as secondary text, or the e-mail alone
 * without a name. `keepShortEmailWhole`: a short e-mail is never broken ("admin / @example.com" in a
 * squeezed column), so its column keeps room for it; a long one still breaks at "@" and dots. `truncateEmail`:
 * under a name, the e-mail takes no width of its own in a narrow column (it ends in "…", the whole address
 * in its tooltip and for screen readers) instead of breaking over lines.
 */
export function PersonText({ person, keepShortEmailWhole = false, truncateEmail = false }: { person: { email: string; full_name?: string | null }; keepShortEmailWhole?: boolean; truncateEmail?: boolean }) {
  const email = keepShortEmailWhole && person.email.length <= SHORT_EMAIL ? <span className="whitespace-nowrap">{person.email}</span> : <EmailText email={person.email} />;
  if (!person.full_name) return email;
  return (
    <span className={`${truncateEmail ? 'flex' : 'inline-flex'} min-w-0 flex-col`}>
      <span className="break-words">{person.full_name}</span>
      {truncateEmail ? (
        <span className="w-0 min-w-full truncate text-xs font-normal text-slate-500" title={person.email}>
          {person.email}
        </span>
      ) : (
        <span className="text-xs font-normal text-slate-500">{email}</span>
      )}
    </span>
  );
}

/** A person in an option list or a sentence: "Ana Ruiz (ana@example.com)", or the e-mail alone. */
export const personLabel = (person: { email: string; full_name?: string | null }) => (person.full_name ? `${person.full_name} (${person.email})` : person.email);
