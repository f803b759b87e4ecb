import { useTranslation } from 'react-i18next';
import type { PagedList } from '../../lib/lists';
import { Button } from './button';

/** Below a paged list: "Show More" while the server has more, "Show Less" back to the first page once more were shown. */
export function ShowMore({ list }: { list: PagedList }) {
  const { t } = useTranslation();
  if (!list.canShowMore && !list.canShowLess) return null;
  return (
    <div className="flex flex-wrap justify-center gap-3">
      {list.canShowMore && (
        <Button variant="secondary" onClick={list.showMore} disabled={list.loadingMore} aria-busy={list.loadingMore}>
          {t('list.showMore')}
        </Button>
      )}
      {list.canShowLess && (
        <Button variant="secondary" onClick={list.showLess}>
          {t('list.showLess')}
        </Button>
      )}
    </div>
  );
}
