import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useId, useState } from 'react';
import { Link, useLocation } from 'wouter';
import type { MeResponse, PublicSettingsResponse, PublicUrlResponse } from '../../../common/api-types';
import { isUnauthorized } from '../../api/admin';
import { getJson } from '../../api/http';
import { directionOf, language, LANGUAGES, loadLanguage } from '../../i18n';
import { Field, LanguageOptions } from '../../components/admin/Field';
import { themedStyle } from '../../components/admin/themed';
import { t, tIn } from '../../components/admin/t';
import { WallPauseButton } from '../../components/admin/WallPauseButton';

/**
 * /admin/qr: a printable sign with the QR code for the guests' upload page, in any language
 * (its code then opens the page in that language), or without one (each phone picks its own).
 * Any signed-in user.
 */
export function QrPage() {
  useSignals();
  const id = useId();
  const [, navigate] = useLocation();
  const [allowed, setAllowed] = useState(false);
  const [canPause, setCanPause] = useState(false);
  const [signLang, setSignLang] = useState('');
  const [ready, setReady] = useState('');
  const [liveUrl, setLiveUrl] = useState(`${window.location.origin}/live`);
  const [names, setNames] = useState<[string, string] | null>(null);
  const [tables, setTables] = useState(0);
  const [look, setLook] = useState<{ theme: string; accent: string | null } | null>(null);
  // The sign's own language; "" (every guest's own) writes it in the panel's language.
  const lang = signLang || language.value;
  const query = signLang ? `?lang=${signLang}` : '';

  useEffect(() => {
    let live = true;
    getJson<MeResponse>('/admin/api/me')
      .then((r) => {
        if (!live) return;
        setAllowed(true);
        setCanPause(r.user_permissions.can_edit_settings);
      })
      .catch((err) => {
        if (live && isUnauthorized(err)) navigate('~/admin/login', { replace: true });
        else if (live) setAllowed(true); // the sign itself is public information; show it anyway
      });
    return () => {
      live = false;
    };
  }, [navigate]);

  useEffect(() => {
    let live = true;
    setLiveUrl(`${window.location.origin}/live${query}`);
    getJson<PublicUrlResponse>(`/api/public-url${query}`)
      .then((r) => live && setLiveUrl(r.live_url))
      .catch(() => undefined);
    // The couple's names as they wrote them for this language.
    getJson<PublicSettingsResponse>(`/api/settings?lang=${lang}`)
      .then((r) => {
        if (!live) return;
        setNames(r.settings.couple_names);
        setTables(r.settings.tables ?? 0);
        setLook({ theme: r.settings.theme, accent: r.settings.accent_color });
      })
      .catch(() => undefined);
    void loadLanguage(lang).then(
      () => live && setReady(lang),
      () => live && setReady(lang),
    );
    return () => {
      live = false;
    };
  }, [query, lang]);

  useEffect(() => {
    // The print rules key off this class, so they only ever apply to this page.
    document.body.classList.add('qr-sign-printing');
    return () => document.body.classList.remove('qr-sign-printing');
  }, []);

  if (!allowed) return <div className="page-loading" aria-busy="true" />;
  const s = (key: string, values?: Record<string, string>) => tIn(ready === lang ? lang : language.value, key, values);
  return (
    <div className="qr-sign-page">
      <Field id={id} label={t('admin.qr.language')} className="qr-sign-language no-print">
        <select id={id} value={signLang} onChange={(e) => setSignLang(e.currentTarget.value)}>
          <option value="">{t('admin.qr.language_auto')}</option>
          <LanguageOptions languages={LANGUAGES} />
        </select>
      </Field>
      <section className="qr-sign card" lang={lang} dir={directionOf(lang)} data-testid="qr-sign" data-theme={look?.theme} style={look ? themedStyle(look.theme, look.accent) : undefined}>
        {names && <h1 className="qr-sign-names">{s('app.couple_names', { first: names[0], second: names[1] })}</h1>}
        <p className="qr-sign-lead">{s('admin.qr.lead')}</p>
        <img className="qr-sign-code" src={`/api/qr.svg${query}`} alt={s('admin.qr.alt', { url: liveUrl })} />
        <p className="qr-sign-url" dir="ltr">
          {liveUrl}
        </p>
      </section>
      <div className="qr-sign-actions">
        <button type="button" className="btn" onClick={() => window.print()}>
          {t('admin.qr.print')}
        </button>
        {tables > 0 && (
          <button type="button" className="btn btn-outline" onClick={() => printTables()}>
            {t('admin.qr.print_tables')}
          </button>
        )}
        <Link href="~/wall" className="btn btn-outline">
          {t('admin.qr.open_wall')}
        </Link>
        {canPause && <WallPauseButton />}
      </div>
      {tables > 0 && (
        <section className="qr-table-signs" aria-labelledby={`${id}-tables`}>
          <h2 id={`${id}-tables`} className="no-print">
            {t('admin.qr.tables_title')}
          </h2>
          {Array.from({ length: tables }, (_, i) => i + 1).map((n) => {
            const url = `${liveUrl.replace(/\?.*$/, '')}?table=${n}${signLang ? `&lang=${signLang}` : ''}`;
            return (
              <section key={n} className="qr-sign qr-table-sign card" lang={lang} dir={directionOf(lang)} data-testid="qr-table-sign" data-table={n} data-theme={look?.theme} style={look ? themedStyle(look.theme, look.accent) : undefined}>
                <p className="qr-table-number">{s('admin.qr.table', { number: String(n) })}</p>
                {names && <h3 className="qr-sign-names">{s('app.couple_names', { first: names[0], second: names[1] })}</h3>}
                <p className="qr-sign-lead">{s('admin.qr.lead')}</p>
                <img className="qr-sign-code" src={`/api/qr.svg?table=${n}${signLang ? `&lang=${signLang}` : ''}`} alt={s('admin.qr.alt', { url })} loading="lazy" />
                <p className="qr-sign-url" dir="ltr">
                  {url}
                </p>
              </section>
            );
          })}
        </section>
      )}
    </div>
  );
}

/** Prints one sign per table, a page each, instead of the page's main sign. */
function printTables(): void {
  document.body.classList.add('qr-print-tables');
  const done = () => {
    document.body.classList.remove('qr-print-tables');
    window.removeEventListener('afterprint', done);
  };
  window.addEventListener('afterprint', done);
  window.print();
}
