import { Component, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CodeNotLoaded } from '../../lib/preloadable-lazy';
import { RetryAlert } from './alert';

/**
 * Where a part loaded on first use (a dialog, an edit row) is drawn: while its code arrives,
 * `fallback`; when it cannot arrive (no signal, and the offline copy did not hold it yet), a line
 * that says so with Retry, in place, instead of the whole screen's failure. Any other failure is
 * the screen's, as before.
 */
export function LazyPart({ fallback = null, children }: { fallback?: ReactNode; children: ReactNode }) {
  return (
    <CodeNotLoadedBoundary>
      <Suspense fallback={fallback}>{children}</Suspense>
    </CodeNotLoadedBoundary>
  );
}

class CodeNotLoadedBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    if (!(error instanceof CodeNotLoaded)) throw error;
    return (
      <PartNotLoaded
        onRetry={() => {
          error.forget();
          this.setState({ error: null });
        }}
      />
    );
  }
}

function PartNotLoaded({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="mt-2 w-64 max-w-full whitespace-normal text-left">
      <RetryAlert onRetry={onRetry} retryLabel={t('common.retry')}>
        {t('app.partNotLoaded')}
      </RetryAlert>
    </div>
  );
}
