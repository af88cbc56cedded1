import { useSignals } from '@preact/signals-react/runtime';
import { Link } from 'wouter';
import { settings } from '../state/settings';

/** On every page (SPEC §2): "Made with care for {name} and {name}'s wedding", Admin link, year. */
export function Footer() {
  useSignals();
  const s = settings.value;
  const names = s ? `${s.couple_names[0]} and ${s.couple_names[1]}` : '…';
  return (
    <footer className="site-footer">
      <p>Made with care for {names}'s wedding</p>
      <p className="site-footer-meta">
        {/* "~" makes the path absolute, also inside the nested /admin routes. */}
        <Link href="~/admin/login">Admin</Link>
        <span aria-hidden="true"> · </span>
        <span>© {new Date().getFullYear()}</span>
      </p>
    </footer>
  );
}
