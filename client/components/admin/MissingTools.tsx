import type { ComponentType, ReactNode } from 'react';
import TriangleAlert from 'lucide-react/icons/triangle-alert';
import type { MissingTool } from '../../../common/api-types';
import { t } from './t';

/** One line of a dashboard warning: its icon, the problem in bold, then what it means for the couple. */
export function WarningLine({ icon: Icon, problem, children }: { icon: ComponentType<{ size?: number; 'aria-hidden'?: 'true' }>; problem: ReactNode; children: ReactNode }) {
  return (
    <p>
      <Icon size={18} aria-hidden="true" /> <strong>{problem}</strong> {children}
    </p>
  );
}

/** The dashboard's warnings for tools processing needs and does not find (none: nothing shown). */
export function MissingTools({ tools }: { tools: MissingTool[] }) {
  if (!tools.length) return null;
  return (
    <section className="alert alert-warning missing-tools" role="alert" data-testid="missing-tools">
      {tools.map((m) => (
        <WarningLine key={m.tool} icon={TriangleAlert} problem={t(m.needed_for === 'heic' ? 'admin.tools.missing_heic' : 'admin.tools.missing_videos', { tool: m.tool })}>
          {t('admin.tools.waiting_files', { count: m.waiting_files, tool: m.tool })}
        </WarningLine>
      ))}
    </section>
  );
}
