import { useEffect, useRef, useState } from 'react';
import type { Stack } from './stacks';
import { t } from './t';

export interface QueueKeyActions {
  approve(id: string): void;
  skip(stack: Stack): void;
  reject(id: string): void;
  keepBest(id: string): void;
  canReject: boolean;
}

/** Typing in a field, a modifier held or a dialog open: the key is not the queue's. */
function notOurs(e: KeyboardEvent): boolean {
  const el = e.target as HTMLElement | null;
  if (e.ctrlKey || e.metaKey || e.altKey) return true;
  if (el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName))) return true;
  return !!document.querySelector('[role="dialog"]:not(.queue-keys-help)');
}

/**
 * The approval queue by keyboard: A approves, S skips, R then Enter rejects, K keeps the front
 * photo of a stack and hides the rest, arrows move, ? shows the keys. Each key acts on the
 * focused card and the focus moves on to the next one by itself.
 */
export function useQueueKeys(stacks: Stack[], on: boolean, act: QueueKeyActions) {
  const [focusId, setFocusId] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [help, setHelp] = useState(false);
  // The card the keys act on: the one chosen, else the one now at its place (it was dealt with), else the first.
  const lastIndex = useRef(0);
  let index = stacks.findIndex((s) => s.lead.id === focusId || s.others.some((o) => o.id === focusId));
  if (index < 0) index = Math.min(lastIndex.current, stacks.length - 1);
  lastIndex.current = Math.max(0, index);
  const focused = index >= 0 ? stacks[index] : undefined;
  const moved = useRef(false);

  const state = useRef({ stacks, focused, index, confirming, help, act });
  state.current = { stacks, focused, index, confirming, help, act };

  useEffect(() => {
    if (!on) return;
    const onKey = (e: KeyboardEvent) => {
      const { stacks: list, focused: card, index: i, confirming: asking, help: helping, act: a } = state.current;
      if (notOurs(e)) return;
      const go = (to: number) => {
        const next = list[Math.max(0, Math.min(list.length - 1, to))];
        moved.current = true;
        setFocusId(next ? next.lead.id : null);
      };
      const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
      if (key === '?') return void (e.preventDefault(), setHelp(!helping));
      if (key === 'Escape') return void (setHelp(false), setConfirming(null));
      if (asking) {
        e.preventDefault();
        setConfirming(null);
        if (key === 'Enter' && card?.lead.id === asking) {
          a.reject(asking);
          go(i + 1);
        }
        return;
      }
      if (!card) return;
      if (key === 'ArrowRight' || key === 'ArrowDown') return void (e.preventDefault(), go(i + 1));
      if (key === 'ArrowLeft' || key === 'ArrowUp') return void (e.preventDefault(), go(i - 1));
      if (key === 'a') {
        a.approve(card.lead.id);
        go(i + 1);
      } else if (key === 's') {
        a.skip(card);
        go(i + 1);
      } else if (key === 'r' && a.canReject) {
        setConfirming(card.lead.id);
      } else if (key === 'k' && card.others.length) {
        a.keepBest(card.lead.id);
        go(i + 1);
      } else return;
      e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [on]);

  // After a key moved it, the focused card takes the page's focus too (screen readers, scrolling).
  useEffect(() => {
    if (!moved.current || !focused) return;
    moved.current = false;
    document.querySelector<HTMLElement>(`[data-testid="approval-card"][data-photo-id="${CSS.escape(focused.lead.id)}"]`)?.focus();
  });

  return { focusedId: on ? (focused?.lead.id ?? null) : null, confirming, help, closeHelp: () => setHelp(false), setFocusId };
}

const KEYS: [string, () => string][] = [
  ['A', () => t('admin.queue.key_approve')],
  ['S', () => t('admin.queue.key_skip')],
  ['R', () => t('admin.queue.key_reject')],
  ['K', () => t('admin.queue.key_keep_best')],
  ['← →', () => t('admin.queue.key_move')],
  ['?', () => t('admin.queue.key_help')],
];

/** The list of keys `?` shows. */
export function QueueKeysHelp({ onClose }: { onClose(): void }) {
  return (
    <div className="queue-keys-help card" role="dialog" aria-modal="false" aria-labelledby="queue-keys-title" data-testid="queue-keys-help">
      <h2 id="queue-keys-title" className="card-title">
        {t('admin.queue.keys_title')}
      </h2>
      <dl>
        {KEYS.map(([k, text]) => (
          <div key={k}>
            <dt>
              <kbd>{k}</kbd>
            </dt>
            <dd>{text()}</dd>
          </div>
        ))}
      </dl>
      <button type="button" className="btn btn-outline" onClick={onClose}>
        {t('admin.queue.keys_close')}
      </button>
    </div>
  );
}
