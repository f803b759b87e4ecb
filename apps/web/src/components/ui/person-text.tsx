import { EmailText } from './email-text';

/** A person as screens show them: their full name with the e-mail as secondary text, or the e-mail alone without a name. */
export function PersonText({ person }: { person: { email: string; full_name?: string | null } }) {
  if (!person.full_name) return <EmailText email={person.email} />;
  return (
    <span className="inline-flex min-w-0 flex-col">
      <span className="break-words">{person.full_name}</span>
      <span className="text-xs font-normal text-slate-500">
        <EmailText email={person.email} />
      </span>
    </span>
  );
}

/** A person in an option list or a sentence: "Ana Ruiz (ana@example.com)", or the e-mail alone. */
export const personLabel = (person: { email: string; full_name?: string | null }) => (person.full_name ? `${person.full_name} (${person.email})` : person.email);
