import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { KeepsakeMusicView, KeepsakeSource, KeepsakeView, Paper } from '../../../common/keepsake-types';
import { errorText } from '../../api/admin';
import { Card } from '../../components/admin/Card';
import { CheckboxRow, Field } from '../../components/admin/Field';
import { keepsakesApi } from '../../components/admin/keepsakes-api';
import { formatDateTime, t } from '../../components/admin/t';
import { formatSize } from '../../i18n/format';
import { handleUnauthorized, me, permissionsOf } from '../../state/admin';

const MIN_SECONDS = 60;
const MAX_SECONDS = 600;
const MUSIC_MB = 100;
const MUSIC_MINUTES = 20;
/** While something is being made, the list is asked again this often. */
export const KEEPSAKES_POLL_MS = 3000;

const SOURCES: { id: KeepsakeSource; label: () => string }[] = [
  { id: 'highlights', label: () => t('admin.keepsakes.source_highlights') },
  { id: 'loved', label: () => t('admin.keepsakes.source_loved') },
  { id: 'visible', label: () => t('admin.keepsakes.source_visible') },
];
const PAPERS: { id: Paper; label: () => string }[] = [
  { id: 'A4', label: () => t('admin.keepsakes.paper_a4') },
  { id: 'letter', label: () => t('admin.keepsakes.paper_letter') },
  { id: 'square', label: () => t('admin.keepsakes.paper_square') },
];
const paperName = (p: Paper | null) => PAPERS.find((x) => x.id === p)?.label() ?? '';
/** 180 -> "3:00". */
const clock = (s: number) => `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, '0')}`;

function statusText(k: KeepsakeView): string {
  if (k.status === 'queued') return t('admin.keepsakes.status_queued');
  if (k.status === 'making') return t('admin.keepsakes.status_making', { percent: k.progress });
  if (k.status === 'ready') return t('admin.keepsakes.status_ready', { size: formatSize(k.file_size ?? 0) });
  return t('admin.keepsakes.status_error', { error: k.error ?? '' });
}

/**
 * /admin/keepsakes: a highlight film and a printable photo book made from the day. Everyone
 * signed in sees, previews and downloads them; the couple and admins make, delete and share them
 * (the server's rights). The list is asked again while one is being made, for its progress.
 */
export function KeepsakesPage() {
  useSignals();
  const id = useId();
  const canMake = permissionsOf(me.value).can_moderate_photos;
  const [items, setItems] = useState<KeepsakeView[] | null>(null);
  const [music, setMusic] = useState<KeepsakeMusicView[]>([]);
  const [shared, setShared] = useState(false);
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const [kind, setKind] = useState<'film' | 'book'>('film');
  const [source, setSource] = useState<KeepsakeSource>('highlights');
  const [seconds, setSeconds] = useState('180');
  const [musicId, setMusicId] = useState('');
  const [paper, setPaper] = useState<Paper>('A4');
  const [title, setTitle] = useState('');
  const musicInput = useRef<HTMLInputElement>(null);

  const fail = (err: unknown, fallback: string) => {
    if (!handleUnauthorized(err)) setStatus({ text: errorText(err, fallback), error: true });
  };
  const load = () =>
    keepsakesApi.list().then(
      (r) => {
        setItems(r.keepsakes);
        setMusic(r.music);
        setShared(r.share_film);
      },
      (err) => fail(err, t('admin.keepsakes.load_failed')),
    );
  useEffect(() => void load(), []);
  // Progress: while one waits or is being made, ask again.
  const working = items?.some((k) => k.status === 'queued' || k.status === 'making') ?? false;
  useEffect(() => {
    if (!working) return;
    const timer = setTimeout(() => void load(), KEEPSAKES_POLL_MS);
    return () => clearTimeout(timer);
  }, [working, items]);

  const run = async (call: () => Promise<unknown>, done: string | null) => {
    setBusy(true);
    try {
      await call();
      if (done) setStatus({ text: done, error: false });
      await load();
      return true;
    } catch (err) {
      fail(err, t('admin.keepsakes.action_failed'));
      return false;
    } finally {
      setBusy(false);
    }
  };

  const make = (e: FormEvent) => {
    e.preventDefault();
    const name = title.trim() || null;
    void run(
      () =>
        kind === 'film'
          ? keepsakesApi.create({ kind, source, seconds: Number(seconds), music_id: musicId || null, title: name })
          : keepsakesApi.create({ kind, source, paper, title: name }),
      t('admin.keepsakes.queued'),
    );
  };

  const addMusic = async (file: File | undefined) => {
    if (!file) return;
    let added: KeepsakeMusicView | null = null;
    const ok = await run(async () => {
      added = await keepsakesApi.uploadMusic(file);
    }, null);
    if (ok && added) {
      setMusicId((added as KeepsakeMusicView).id);
      setStatus({ text: t('admin.keepsakes.music_added', { name: (added as KeepsakeMusicView).original_name }), error: false });
    }
    if (musicInput.current) musicInput.current.value = '';
  };

  const remove = (k: KeepsakeView) => {
    if (!window.confirm(t('admin.keepsakes.confirm_delete'))) return;
    void run(() => keepsakesApi.remove(k.id), t('admin.keepsakes.deleted'));
  };

  const share = (on: boolean) => {
    setShared(on);
    void run(() => keepsakesApi.share(on), on ? t('admin.keepsakes.shared_on') : t('admin.keepsakes.shared_off'));
  };

  const secondsOk = /^\d+$/.test(seconds) && Number(seconds) >= MIN_SECONDS && Number(seconds) <= MAX_SECONDS;
  return (
    <div className="admin-page keepsakes-page" aria-busy={busy}>
      <h1>{t('admin.keepsakes.title')}</h1>
      <p className="muted">{t('admin.keepsakes.intro')}</p>
      <p className={status?.error ? 'remote-status remote-error' : 'remote-status'} role="status" data-testid="keepsakes-status">
        {status?.text}
      </p>

      {canMake ? (
        <Card title={t('admin.keepsakes.make_title')} titleId={`${id}-make`}>
          <form className="keepsakes-form" onSubmit={make}>
            <fieldset className="keepsakes-choices">
              <legend>{t('admin.keepsakes.kind')}</legend>
              {(['film', 'book'] as const).map((k) => (
                <label key={k} className="remote-choice">
                  <input type="radio" name={`${id}-kind`} value={k} checked={kind === k} onChange={() => setKind(k)} />
                  {k === 'film' ? t('admin.keepsakes.kind_film') : t('admin.keepsakes.kind_book')}
                </label>
              ))}
            </fieldset>
            <fieldset className="keepsakes-choices">
              <legend>{t('admin.keepsakes.source')}</legend>
              {SOURCES.map((s) => (
                <label key={s.id} className="remote-choice">
                  <input type="radio" name={`${id}-source`} value={s.id} checked={source === s.id} onChange={() => setSource(s.id)} />
                  {s.label()}
                </label>
              ))}
            </fieldset>
            {kind === 'film' ? (
              <>
                <Field id={`${id}-seconds`} label={t('admin.keepsakes.seconds', { min: MIN_SECONDS, max: MAX_SECONDS })}>
                  <input
                    id={`${id}-seconds`}
                    type="number"
                    inputMode="numeric"
                    min={MIN_SECONDS}
                    max={MAX_SECONDS}
                    step={1}
                    required
                    value={seconds}
                    aria-invalid={!secondsOk}
                    onChange={(e) => setSeconds(e.target.value)}
                  />
                </Field>
                <Field id={`${id}-music`} label={t('admin.keepsakes.music')}>
                  <select id={`${id}-music`} value={musicId} onChange={(e) => setMusicId(e.target.value)}>
                    <option value="">{t('admin.keepsakes.no_music')}</option>
                    {music.map((m) => (
                      <option key={m.id} value={m.id} dir="auto">
                        {m.original_name} ({clock(m.duration)})
                      </option>
                    ))}
                  </select>
                </Field>
                <Field id={`${id}-upload`} label={t('admin.keepsakes.upload_music')} hint={t('admin.keepsakes.music_hint', { mb: MUSIC_MB, minutes: MUSIC_MINUTES })} hintId={`${id}-upload-hint`}>
                  <input
                    id={`${id}-upload`}
                    ref={musicInput}
                    type="file"
                    accept="audio/mp4,audio/x-m4a,audio/aac,audio/ogg,audio/webm,audio/wav,.m4a,.ogg,.opus,.webm,.wav"
                    aria-describedby={`${id}-upload-hint`}
                    disabled={busy}
                    onChange={(e) => void addMusic(e.target.files?.[0])}
                  />
                </Field>
              </>
            ) : (
              <fieldset className="keepsakes-choices">
                <legend>{t('admin.keepsakes.paper')}</legend>
                {PAPERS.map((p) => (
                  <label key={p.id} className="remote-choice">
                    <input type="radio" name={`${id}-paper`} value={p.id} checked={paper === p.id} onChange={() => setPaper(p.id)} />
                    {p.label()}
                  </label>
                ))}
              </fieldset>
            )}
            <Field id={`${id}-title`} label={t('admin.keepsakes.name')}>
              <input id={`${id}-title`} type="text" maxLength={120} value={title} dir="auto" onChange={(e) => setTitle(e.target.value)} />
            </Field>
            <button type="submit" className="btn remote-big" disabled={busy || (kind === 'film' && !secondsOk)}>
              {kind === 'film' ? t('admin.keepsakes.make_film') : t('admin.keepsakes.make_book')}
            </button>
          </form>
        </Card>
      ) : (
        <p className="muted">{t('admin.keepsakes.family_note')}</p>
      )}

      {canMake && (
        <Card title={t('admin.keepsakes.share_title')} titleId={`${id}-share`}>
          <CheckboxRow role="switch" checked={shared} disabled={busy} onChange={(e) => share(e.target.checked)} label={t('admin.keepsakes.share')} hint={t('admin.keepsakes.share_hint')} hintId={`${id}-share-hint`} />
        </Card>
      )}

      <Card title={t('admin.keepsakes.list_title')} titleId={`${id}-list`}>
        {items && items.length === 0 && <p className="muted">{t('admin.keepsakes.empty')}</p>}
        <ul className="keepsakes-list">
          {(items ?? []).map((k) => {
            const name = k.kind === 'film' ? t('admin.keepsakes.film_item', { length: clock(k.seconds ?? 0) }) : t('admin.keepsakes.book_item', { paper: paperName(k.paper) });
            return (
              <li key={k.id} className="keepsakes-item" data-keepsake-id={k.id}>
                <p className="keepsakes-name">
                  <strong>{name}</strong>
                  {k.title && (
                    <>
                      {' · '}
                      <span dir="auto">{k.title}</span>
                    </>
                  )}
                </p>
                <p className="muted">{formatDateTime(k.created_at)}</p>
                <p className={k.status === 'error' ? 'remote-error' : undefined}>{statusText(k)}</p>
                {(k.status === 'making' || k.status === 'queued') && <progress max={100} value={k.progress} aria-label={name} />}
                {k.status === 'ready' && k.url && k.kind === 'film' && <video className="keepsakes-video" controls preload="metadata" playsInline src={k.url} aria-label={name} />}
                <p className="keepsakes-actions">
                  {k.status === 'ready' && k.url && k.kind === 'book' && (
                    <a className="btn btn-outline btn-sm" href={k.url} target="_blank" rel="noopener">
                      {t('admin.keepsakes.open_pdf')}
                    </a>
                  )}
                  {k.status === 'ready' && k.url && (
                    <a className="btn btn-outline btn-sm" href={`${k.url}?download=1`} download>
                      {t('admin.keepsakes.download')}
                    </a>
                  )}
                  {canMake && (
                    <button type="button" className="btn btn-danger btn-sm" disabled={busy} onClick={() => remove(k)}>
                      {t('admin.keepsakes.delete')}
                    </button>
                  )}
                </p>
              </li>
            );
          })}
        </ul>
      </Card>
    </div>
  );
}
