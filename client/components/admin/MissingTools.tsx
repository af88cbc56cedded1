import TriangleAlert from 'lucide-react/icons/triangle-alert';
import type { MissingTool } from '../../../common/api-types';
import { t } from './t';

/** The dashboard's warnings for tools processing needs and does not find (none: nothing shown). */
export function MissingTools({ tools }: { tools: MissingTool[] }) {
  if (!tools.length) return null;
  return (
    <section className="alert alert-warning missing-tools" role="alert" data-testid="missing-tools">
      {tools.map((m) => (
        <p key={m.tool}>
          <TriangleAlert size={18} aria-hidden="true" />{' '}
          <strong>{m.needed_for === 'heic' ? t('admin.tools.missing_heic', { tool: m.tool }) : t('admin.tools.missing_videos', { tool: m.tool })}</strong>{' '}
          {t('admin.tools.waiting_files', { count: m.waiting_files, tool: m.tool })}
        </p>
      ))}
    </section>
  );
}
