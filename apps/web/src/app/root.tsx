import { Component, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { Button } from '../components/ui/button';
import { LoadingScreen } from '../components/ui/loading-screen';
import { AuthProvider } from '../lib/auth';
import { useKeepFocusInPlace } from '../lib/focus';

/**
 * Everything below the router needs the session, and the session needs the router to redirect.
 * Focus stays where a person was when what they used goes away (lib/focus.ts), on every screen.
 */
export function Root() {
  useKeepFocusInPlace();
  return (
    <AuthProvider>
      <ScreenFailure>
        <Suspense fallback={<LoadingScreen />}>
          <Outlet />
        </Suspense>
      </ScreenFailure>
    </AuthProvider>
  );
}

/**
 * A screen whose code could not load (a dropped connection before the offline cache held it, or
 * a build replaced under an open page) or that failed to draw: a message and a reload instead of a
 * blank page. React itself logs the error it caught (console.error).
 */
class ScreenFailure extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  render() {
    return this.state.failed ? <FailedScreen /> : this.props.children;
  }
}

function FailedScreen() {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-screen flex-col items-center justify-center gap-4 bg-slate-50 p-6 text-center" role="alert">
      <p className="max-w-md text-lg font-medium text-slate-700">{t('app.failed')}</p>
      <Button onClick={() => window.location.reload()}>{t('app.reload')}</Button>
    </div>
  );
}
