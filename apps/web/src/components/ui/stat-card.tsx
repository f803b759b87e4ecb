import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

const cardClasses =
  'flex w-full flex-col gap-2 rounded-2xl bg-white p-5 text-left shadow-sm ring-1 ring-slate-200 transition hover:ring-brand-500 hover:shadow-md aria-expanded:ring-2 aria-expanded:ring-brand-600 [.compact-cards_&]:gap-0.5 [.compact-cards_&]:rounded-xl [.compact-cards_&]:p-2';

/** `count` is undefined while it loads: a grey bar stands in for the number; `caption` says what it counts. */
function CardBody({ label, count, caption }: { label: string; count: number | undefined; caption?: string }) {
  const { t } = useTranslation();
  return (
    <>
      <span className="text-sm font-semibold text-slate-600 [.compact-cards_&]:text-[11px] [.compact-cards_&]:leading-tight">{label}</span>
      {/* Spaces between the parts keep a screen reader's name readable ("My Tasks 3"); a flex column does not draw them. */}{' '}
      {count === undefined ? (
        <span className="my-1.5 block h-6 w-10 animate-pulse rounded bg-slate-200 motion-reduce:animate-none">
          <span className="sr-only">{t('app.loading')}</span>
        </span>
      ) : (
        <span className="text-3xl font-bold text-ink [.compact-cards_&]:text-xl">{count}</span>
      )}{' '}
      {caption && <span className="text-xs text-slate-500 [.compact-cards_&]:text-[10px] [.compact-cards_&]:leading-tight">{caption}</span>}
    </>
  );
}

/**
 * A dashboard card that either goes somewhere or opens the panel it controls. `onIntent` runs
 * when a pointer rests on it or it takes focus: the moment to fetch what it leads to.
 */
export function StatCard(
  props: { label: string; count: number | undefined; caption?: string; onIntent?: () => void } & ({ to: string } | { expanded: boolean; controls: string; onToggle: () => void }),
) {
  const intent = props.onIntent && { onMouseEnter: props.onIntent, onFocus: props.onIntent, onTouchStart: props.onIntent };
  if ('to' in props) {
    return (
      <Link to={props.to} className={cardClasses} {...intent}>
        <CardBody label={props.label} count={props.count} caption={props.caption} />
      </Link>
    );
  }
  return (
    <button type="button" className={cardClasses} aria-expanded={props.expanded} aria-controls={props.controls} onClick={props.onToggle} {...intent}>
      <CardBody label={props.label} count={props.count} caption={props.caption} />
    </button>
  );
}
