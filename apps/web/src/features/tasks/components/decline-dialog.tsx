import type { Subtask } from '@siteboard/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { loadOnApproach, preloadableLazy, useMountedFromFirstOpen } from '../../../lib/preloadable-lazy';
import { LazyPart } from '../../../components/ui/lazy-part';

// The dialog (its form, zod validation and modal) loads when pointed at or first opened: the lists
// that show the button, the dashboards' among them, draw without it (decision record 095).
const { Component: DeclineDialog, load: loadDialog } = preloadableLazy(() => import('./decline-form').then((module) => module.DeclineDialog));

/**
 * "Decline Task" asks why: the reason is required here (the API accepts a decline without one for
 * the spec's client), sent with the decline, shown to the assignee and kept in the timeline.
 * `decline` resolves to null when it worked (the dialog closes), else to the failure's text, which
 * the dialog shows while keeping the reason typed.
 */
export function DeclineButton({ subtask, describedBy, disabled, decline }: { subtask: Subtask; describedBy?: string; disabled?: boolean; decline: (reason: string) => Promise<string | null> }) {
  const { t } = useTranslation();
  const { open, setOpen, mounted, show } = useMountedFromFirstOpen();
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <>
      <Button
        variant="secondary"
        className="px-3 py-1.5"
        aria-describedby={describedBy}
        disabled={disabled}
        {...loadOnApproach(loadDialog)}
        onClick={() => {
          setFailure(null);
          show();
        }}
      >
        {t('taskBoard.decline')}
      </Button>
      {mounted && (
        <LazyPart>
          <DeclineDialog subtask={subtask} open={open} onOpenChange={setOpen} failure={failure} setFailure={setFailure} decline={decline} />
        </LazyPart>
      )}
    </>
  );
}
