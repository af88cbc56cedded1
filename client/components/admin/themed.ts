import { useEffect, type CSSProperties } from 'react';
import { themeById, themeVars, usableAccent } from '../../../common/themes';

/** The custom properties of the wedding's look for one element (the QR sign, the settings preview). */
export function themedStyle(themeId: string | undefined, accent: string | null | undefined): CSSProperties {
  const theme = themeById(themeId);
  const vars = themeVars(theme, accent ? usableAccent(theme, accent) : null);
  return { ...vars, background: vars['--bg'], color: vars['--text'], fontFamily: vars['--font-sans'] } as CSSProperties;
}

/** Links a theme's font stylesheet while the component shows (once per address). */
export function useFontSheet(href: string | null | undefined): void {
  useEffect(() => {
    if (!href || document.querySelector(`link[href="${href}"]`)) return;
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    document.head.append(link);
  }, [href]);
}
