import '../../shared-chunk';
import { useSignals } from '@preact/signals-react/runtime';
import { lazy, Suspense, useEffect, useState, type FormEvent } from 'react';
import type { GuestbookEntry, MyGuestbookEntry } from '../../../common/api-types';
import { GUESTBOOK_MESSAGE_MAX } from '../../../common/rules';
import { deleteMyMessage, fetchGuestbook, fetchMyGuestbook, sendMessage } from '../../api/guestbook';
import { ApiError } from '../../api/http';
import { Footer } from '../Footer';
import { t } from './t';
import { toast } from '../ui/toast';
import { formatDateTime } from '../../i18n/format';
import { guestName, NAME_MAX, setGuestName } from '../../state/guest';
import { coupleNames, settings } from '../../state/settings';

// The recorder loads only when a guest asks to record.
const VoiceRecorder = lazy(() => import('./VoiceRecorder'));

interface Voice {
  blob: Blob;
  name: string;
  url: string;
}

function Message({ e, mine }: { e: GuestbookEntry; mine?: MyGuestbookEntry & { onDelete(): void } }) {
  return (
    <li className="card guestbook-entry" data-entry-id={e.id}>
      <p className="guestbook-text" dir="auto">
        {e.message}
      </p>
      <p className="guestbook-by muted">
        <span dir="auto">{e.name ?? t('guestbook.anonymous')}</span> · <time dateTime={e.created_at}>{formatDateTime(e.created_at)}</time>
      </p>
      {e.audio_url && <audio controls preload="none" src={e.audio_url} aria-label={t('guestbook.voice.play')} />}
      {mine && (
        <p className="guestbook-mine">
          {mine.status === 'pending' && <span className="badge">{t('guestbook.mine.pending')}</span>}
          <button type="button" className="btn btn-ghost btn-sm" onClick={mine.onDelete}>
            {t('guestbook.mine.delete')}
          </button>
        </p>
      )}
    </li>
  );
}

/** /guestbook: guests read the approved messages and leave their own, with a name and a voice note if they like. */
export default function GuestbookPage() {
  useSignals();
  const [entries, setEntries] = useState<GuestbookEntry[]>([]);
  const [more, setMore] = useState(false);
  const [mine, setMine] = useState<MyGuestbookEntry[]>([]);
  const [text, setText] = useState('');
  const [voice, setVoice] = useState<Voice | null>(null);
  const [recorder, setRecorder] = useState(false);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<{ field: string; text: string } | null>(null);
  const names = coupleNames(settings.value);

  const loadMine = () => fetchMyGuestbook().then((r) => setMine(r.entries), () => undefined);
  const loadPage = (offset: number) =>
    fetchGuestbook(20, offset).then(
      (r) => {
        setEntries((old) => (offset ? [...old, ...r.entries] : r.entries));
        setMore(r.pagination.has_more);
      },
      () => undefined,
    );
  useEffect(() => {
    void loadPage(0);
    void loadMine();
  }, []);

  function keepVoice(blob: Blob, name: string) {
    if (voice) URL.revokeObjectURL(voice.url);
    setVoice({ blob, name, url: URL.createObjectURL(blob) });
    setRecorder(false);
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!text.trim()) return setError({ field: 'message', text: t('guestbook.form.empty') });
    setSending(true);
    setError(null);
    try {
      const r = await sendMessage({ message: text, name: guestName.value, audio: voice?.blob ?? null, audioName: voice?.name });
      toast({ title: r.entry.status === 'visible' ? t('guestbook.sent.visible') : t('guestbook.sent.pending') });
      setText('');
      if (voice) URL.revokeObjectURL(voice.url);
      setVoice(null);
      await Promise.all([loadMine(), loadPage(0)]);
    } catch (err) {
      const field = err instanceof ApiError && typeof (err.body as { field?: unknown })?.field === 'string' ? (err.body as { field: string }).field : 'form';
      setError({ field, text: err instanceof ApiError ? err.message : t('guestbook.form.offline') });
    } finally {
      setSending(false);
    }
  }

  async function remove(id: string) {
    try {
      await deleteMyMessage(id);
      setMine((m) => m.filter((x) => x.id !== id));
      setEntries((m) => m.filter((x) => x.id !== id));
    } catch (err) {
      toast({ title: err instanceof ApiError ? err.message : t('guestbook.form.offline'), variant: 'destructive' });
    }
  }

  const fieldError = (field: string) =>
    error?.field === field && (
      <p className="field-error" role="alert" id={`gb-${field}-error`}>
        {error.text}
      </p>
    );
  const pending = mine.filter((m) => m.status === 'pending');

  return (
    <div className="page">
      <main className="container guestbook-page">
        <header className="page-header">
          <p className="eyebrow">{names}</p>
          <h1>{t('guestbook.title')}</h1>
          <p className="lead muted">{t('guestbook.lead')}</p>
        </header>

        <form className="card guestbook-form" onSubmit={(e) => void submit(e)} noValidate>
          <label htmlFor="gb-message">{t('guestbook.form.message')}</label>
          <textarea
            id="gb-message"
            value={text}
            maxLength={GUESTBOOK_MESSAGE_MAX}
            dir="auto"
            aria-invalid={error?.field === 'message'}
            aria-describedby={error?.field === 'message' ? 'gb-message-error' : undefined}
            onChange={(e) => setText(e.currentTarget.value)}
          />
          <p className="muted guestbook-count">{t('guestbook.form.count', { count: [...text].length, max: GUESTBOOK_MESSAGE_MAX })}</p>
          {fieldError('message')}
          <label htmlFor="gb-name">{t('guestbook.form.name')}</label>
          <input id="gb-name" type="text" autoComplete="name" maxLength={NAME_MAX} dir="auto" value={guestName.value} onChange={(e) => setGuestName(e.currentTarget.value)} />
          {fieldError('name')}

          <fieldset className="guestbook-voice">
            <legend>{t('guestbook.voice.title')}</legend>
            {voice ? (
              <div className="voice-ready">
                <audio controls src={voice.url} aria-label={t('guestbook.voice.replay')} data-testid="voice-preview" />
                <button type="button" className="btn btn-outline btn-sm" onClick={() => (setVoice(null), setRecorder(true))}>
                  {t('guestbook.voice.again')}
                </button>
                <button type="button" className="btn btn-ghost btn-sm" onClick={() => setVoice(null)}>
                  {t('guestbook.voice.remove')}
                </button>
              </div>
            ) : recorder ? (
              <Suspense fallback={<p className="muted">{t('guestbook.voice.loading')}</p>}>
                <VoiceRecorder onRecorded={(blob, ext) => keepVoice(blob, `voice-note.${ext}`)} />
              </Suspense>
            ) : (
              <div className="voice-choices">
                <button type="button" className="btn btn-outline" onClick={() => setRecorder(true)}>
                  {t('guestbook.voice.record')}
                </button>
                <label className="btn btn-ghost voice-file">
                  {t('guestbook.voice.pick')}
                  <input type="file" accept="audio/*" className="sr-only" onChange={(e) => e.currentTarget.files?.[0] && keepVoice(e.currentTarget.files[0], e.currentTarget.files[0].name)} />
                </label>
              </div>
            )}
            <p className="muted">{t('guestbook.voice.hint', { minutes: 2 })}</p>
            {fieldError('audio')}
          </fieldset>
          {fieldError('form')}
          <button type="submit" className="btn" disabled={sending}>
            {sending ? t('guestbook.form.sending') : t('guestbook.form.send')}
          </button>
        </form>

        {pending.length > 0 && (
          <section aria-labelledby="gb-mine">
            <h2 id="gb-mine">{t('guestbook.mine.title')}</h2>
            <ul className="guestbook-list">
              {pending.map((m) => (
                <Message key={m.id} e={m} mine={{ ...m, onDelete: () => void remove(m.id) }} />
              ))}
            </ul>
          </section>
        )}

        <section aria-labelledby="gb-messages">
          <h2 id="gb-messages">{t('guestbook.list.title')}</h2>
          {entries.length === 0 && <p className="muted">{t('guestbook.list.empty')}</p>}
          <ul className="guestbook-list">
            {entries.map((e) => {
              const own = mine.find((m) => m.id === e.id);
              return <Message key={e.id} e={e} mine={own && { ...own, onDelete: () => void remove(e.id) }} />;
            })}
          </ul>
          {more && (
            <button type="button" className="btn btn-outline" onClick={() => void loadPage(entries.length)}>
              {t('guestbook.list.more')}
            </button>
          )}
        </section>
      </main>
      <Footer />
    </div>
  );
}
