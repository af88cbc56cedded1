import { useSignals } from '@preact/signals-react/runtime';
import { Link } from 'wouter';
import { t } from '../i18n';
import { LanguageSwitcher } from '../i18n/LanguageSwitcher';
import { coupleNames, settings } from '../state/settings';

/** On every page (SPEC §2): "Made with care for {name} and {name}'s wedding", Admin link, year; and the language switcher. */
export function Footer() {
  useSignals();
  const names = coupleNames(settings.value) || '…';
  return (
    <footer className="site-footer">
      <p>{t('app.footer.made_with_care', { names })}</p>
      <p className="site-footer-meta">
        <Link href="~/guestbook">{t('app.footer.guestbook')}</Link>
        <span aria-hidden="true"> · </span>
        {/* "~" makes the path absolute, also inside the nested /admin routes. */}
        <Link href="~/admin/login">{t('app.footer.admin')}</Link>
        <span aria-hidden="true"> · </span>
        <span>© {new Date().getFullYear()}</span>
      </p>
      <LanguageSwitcher />
    </footer>
  );
}
