import { signal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { t } from '../../i18n';

export interface Toast {
  id: number;
  title: string;
  description?: string;
  variant: 'default' | 'destructive' | 'success';
}

/** SPEC §9: toasts dismiss after 5 s and stack 5 rem apart. */
export const TOAST_MS = 5000;
/** At most this many at once, so a burst (seven files done) cannot cover a phone's screen: older ones leave early. */
export const MAX_TOASTS = 3;

/** Over the limit, the oldest toast leaves, but an error outstays older good news. */
function capped(list: Toast[]): Toast[] {
  const out = [...list];
  while (out.length > MAX_TOASTS) {
    const i = out.findIndex((t) => t.variant !== 'destructive');
    out.splice(i >= 0 && i < out.length - 1 ? i : 0, 1);
  }
  return out;
}
export const toasts = signal<Toast[]>([]);
let nextId = 1;

export function toast(t: Omit<Toast, 'id' | 'variant'> & { variant?: Toast['variant'] }): number {
  const id = nextId++;
  toasts.value = capped([...toasts.value, { variant: 'default', ...t, id }]);
  setTimeout(() => dismissToast(id), TOAST_MS);
  return id;
}

export function dismissToast(id: number): void {
  toasts.value = toasts.value.filter((t) => t.id !== id);
}

export function Toaster() {
  useSignals();
  return (
    <div className="toaster" aria-live="polite" aria-atomic="false">
      {toasts.value.map((n) => (
        <div
          key={n.id}
          role={n.variant === 'destructive' ? 'alert' : 'status'}
          className={`toast toast-${n.variant}`}
        >
          <div className="toast-body">
            <div className="toast-title">{n.title}</div>
            {n.description && <div className="toast-description">{n.description}</div>}
          </div>
          <button type="button" className="toast-close" aria-label={t('app.dismiss')} onClick={() => dismissToast(n.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
