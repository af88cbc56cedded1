/**
 * The wedding's looks: each a palette and a pairing of fonts (a serif or display face for names
 * and headings, a sans for text). Guest pages, the wall and the QR signs take them as CSS custom
 * properties the server writes into the page, so choosing one costs guests no JavaScript; the
 * admin panel keeps the default look. Imported by the server and the admin chunk only.
 */
import { contrast, mix } from './contrast.js';

export interface Palette {
  bg: string;
  surface: string;
  surfaceMuted: string;
  text: string;
  textMuted: string;
  border: string;
  /** Decoration: dashed borders, progress bars. */
  accent: string;
  /** Buttons (with onAccent text on them), links and headings on the page's surfaces. */
  accentStrong: string;
  accentDeep: string;
  accentSoft: string;
  onAccent: string;
  gold: string;
  goldText: string;
  /** Status texts on the page's surfaces (a dark theme needs lighter ones). */
  dangerText: string;
  successText: string;
  warningText: string;
}

export interface FontFace {
  family: string;
  /** The @fontsource package (npm) the files come from. */
  pkg: string;
  /** Weight files taken from it: `400`, `500-italic`, ... */
  files: string[];
  fallback: string;
}

export interface Theme {
  id: string;
  /** Catalogue key of the theme's name (admin settings). */
  nameKey: string;
  dark: boolean;
  radius: string;
  serif: FontFace;
  sans: FontFace;
  palette: Palette;
}

const SERIF_FALLBACK = "Georgia, 'Times New Roman', serif";
const SANS_FALLBACK = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
const serif = (family: string, pkg: string, files = ['500', '600', '500-italic']): FontFace => ({ family, pkg, files, fallback: SERIF_FALLBACK });
const sans = (family: string, pkg: string, files = ['400', '500', '600']): FontFace => ({ family, pkg, files, fallback: SANS_FALLBACK });
const LIGHT_STATUS = { dangerText: '#b3261e', successText: '#276b2b', warningText: '#8a5300' };

export const DEFAULT_THEME = 'sage';

export const THEMES: readonly Theme[] = [
  {
    id: 'sage',
    nameKey: 'admin.theme.sage',
    dark: false,
    radius: '12px',
    serif: serif('Cormorant Garamond', 'cormorant-garamond'),
    sans: sans('Inter', 'inter'),
    palette: {
      bg: '#faf7f2', surface: '#ffffff', surfaceMuted: '#f3eee6', text: '#2b2722', textMuted: '#6b6258', border: '#e4dccf',
      accent: '#7a8b6f', accentStrong: '#5d6d53', accentDeep: '#4a5842', accentSoft: '#e8eee3', onAccent: '#ffffff',
      gold: '#b08d57', goldText: '#806138', ...LIGHT_STATUS,
    },
  },
  {
    id: 'classic',
    nameKey: 'admin.theme.classic',
    dark: false,
    radius: '6px',
    serif: serif('Playfair Display', 'playfair-display'),
    sans: sans('Source Sans 3', 'source-sans-3'),
    palette: {
      bg: '#fbfaf7', surface: '#ffffff', surfaceMuted: '#f1efe9', text: '#1f2430', textMuted: '#555b6a', border: '#dcd8ce',
      accent: '#3b4f7a', accentStrong: '#2c3e66', accentDeep: '#1f2d4d', accentSoft: '#e6eaf3', onAccent: '#ffffff',
      gold: '#b8975a', goldText: '#7a6130', ...LIGHT_STATUS,
    },
  },
  {
    id: 'garden',
    nameKey: 'admin.theme.garden',
    dark: false,
    radius: '16px',
    serif: serif('Lora', 'lora'),
    sans: sans('Nunito', 'nunito'),
    palette: {
      bg: '#f7f9f3', surface: '#ffffff', surfaceMuted: '#edf2e6', text: '#1f2a1c', textMuted: '#51604b', border: '#d6e0cc',
      accent: '#5b8a4a', accentStrong: '#3f6b30', accentDeep: '#2f5224', accentSoft: '#e3eed9', onAccent: '#ffffff',
      gold: '#c08a3e', goldText: '#855617', ...LIGHT_STATUS,
    },
  },
  {
    id: 'coastal',
    nameKey: 'admin.theme.coastal',
    dark: false,
    radius: '10px',
    serif: serif('EB Garamond', 'eb-garamond'),
    sans: sans('Open Sans', 'open-sans'),
    palette: {
      bg: '#f5f9fb', surface: '#ffffff', surfaceMuted: '#e8f1f5', text: '#17303d', textMuted: '#4a6270', border: '#d0e1e8',
      accent: '#3a86a8', accentStrong: '#1d6585', accentDeep: '#15506a', accentSoft: '#dcedf4', onAccent: '#ffffff',
      gold: '#d3a869', goldText: '#7f5a25', ...LIGHT_STATUS,
    },
  },
  {
    id: 'rustic',
    nameKey: 'admin.theme.rustic',
    dark: false,
    radius: '8px',
    serif: serif('Alegreya', 'alegreya'),
    sans: sans('Alegreya Sans', 'alegreya-sans', ['400', '500', '700']),
    palette: {
      bg: '#f8f3ec', surface: '#fffdf9', surfaceMuted: '#efe6da', text: '#2e241b', textMuted: '#654f3f', border: '#e0d2c0',
      accent: '#a0643a', accentStrong: '#854b24', accentDeep: '#6d3c1c', accentSoft: '#f1e2d3', onAccent: '#ffffff',
      gold: '#9c7a3c', goldText: '#6f5426', ...LIGHT_STATUS,
    },
  },
  {
    id: 'modern',
    nameKey: 'admin.theme.modern',
    dark: false,
    radius: '4px',
    serif: serif('Montserrat', 'montserrat', ['500', '600', '500-italic']),
    sans: sans('Inter', 'inter'),
    palette: {
      bg: '#ffffff', surface: '#ffffff', surfaceMuted: '#f3f4f6', text: '#111111', textMuted: '#52575d', border: '#e2e4e8',
      accent: '#3a3a3a', accentStrong: '#1a1a1a', accentDeep: '#000000', accentSoft: '#f0f0f0', onAccent: '#ffffff',
      gold: '#9a9a9a', goldText: '#595959', ...LIGHT_STATUS,
    },
  },
  {
    id: 'blush',
    nameKey: 'admin.theme.blush',
    dark: false,
    radius: '18px',
    serif: serif('Dancing Script', 'dancing-script', ['500', '600']),
    sans: sans('Nunito', 'nunito'),
    palette: {
      bg: '#fdf7f6', surface: '#ffffff', surfaceMuted: '#f8ebe9', text: '#3a2629', textMuted: '#6e5357', border: '#efd9d6',
      accent: '#c98b8f', accentStrong: '#9a4853', accentDeep: '#7f3a43', accentSoft: '#f8e4e4', onAccent: '#ffffff',
      gold: '#c9a36b', goldText: '#825f31', ...LIGHT_STATUS,
    },
  },
  {
    id: 'midnight',
    nameKey: 'admin.theme.midnight',
    dark: true,
    radius: '10px',
    serif: serif('Bodoni Moda', 'bodoni-moda'),
    sans: sans('Jost', 'jost'),
    palette: {
      bg: '#141a2b', surface: '#1c2438', surfaceMuted: '#242e46', text: '#f1ede4', textMuted: '#bdb8ae', border: '#3a4563',
      accent: '#b8964f', accentStrong: '#e0c07e', accentDeep: '#ecd39e', accentSoft: '#222b40', onAccent: '#141a2b',
      gold: '#d4b06a', goldText: '#e0c07e', dangerText: '#ff9a8f', successText: '#8fd694', warningText: '#ffc46b',
    },
  },
];

export const THEME_IDS = THEMES.map((t) => t.id);
export const themeById = (id: string | null | undefined): Theme => THEMES.find((t) => t.id === id) ?? THEMES.find((t) => t.id === DEFAULT_THEME)!;

/**
 * The weight files the film and the book draw with: the serif's first of 600 or heavier (the
 * names), the sans's 400 (the text). The build copies just these for them (dist/keepsake-fonts).
 */
export function keepsakeWeights(theme: Theme): { serif: string; sans: string } {
  return {
    serif: theme.serif.files.find((f) => /^\d+$/.test(f) && Number(f) >= 600) ?? theme.serif.files[0],
    sans: theme.sans.files.find((f) => f === '400') ?? theme.sans.files[0],
  };
}

/** WCAG 2.2 AA for text: 4.5:1. */
export const AA_TEXT = 4.5;

const TEXTS = ['text', 'textMuted', 'accentStrong', 'goldText', 'dangerText', 'successText', 'warningText'] as const;
const SURFACES = ['bg', 'surface', 'surfaceMuted', 'accentSoft'] as const;

/** Whether every text colour reads on every surface, and button text on the accent (plain and hovered). */
function reads(p: Palette): boolean {
  return TEXTS.every((f) => SURFACES.every((b) => contrast(p[f], p[b]) >= AA_TEXT)) && contrast(p.onAccent, p.accentStrong) >= AA_TEXT && contrast(p.onAccent, p.accentDeep) >= AA_TEXT;
}

/**
 * The couple's accent as it will be used: unchanged when it reads, else moved towards black (a
 * light theme) or white (a dark one) in small steps until text on it and it on the page pass AA.
 */
export function usableAccent(theme: Theme, accent: string): string {
  const toward = theme.dark ? '#ffffff' : '#000000';
  for (let step = 0; step <= 50; step++) {
    const c = mix(accent, toward, step / 50);
    if (reads(paletteWith(theme, c))) return c;
  }
  return theme.palette.accentStrong;
}

/** The theme's palette with the accent (already usable) in place of its own. */
export function paletteWith(theme: Theme, accent: string | null): Palette {
  const p = theme.palette;
  if (!accent) return p;
  const toward = theme.dark ? '#ffffff' : '#000000';
  return { ...p, accentStrong: accent, accentDeep: mix(accent, toward, 0.2), accent: mix(accent, p.bg, 0.2), accentSoft: softTint(p, accent) };
}

/**
 * The accent's pale tint for surfaces: 90% page colour, paler where a text colour would not read
 * on it (a dark accent's tint is darker; darkening the accent itself would only make that worse).
 */
function softTint(p: Palette, accent: string): string {
  for (const share of [0.9, 0.92, 0.94, 0.96, 0.98]) {
    const tint = mix(accent, p.bg, share);
    if (TEXTS.every((f) => contrast(f === 'accentStrong' ? accent : p[f], tint) >= AA_TEXT)) return tint;
  }
  return p.bg;
}

const fontStack = (f: FontFace) => `'${f.family}', ${f.fallback}`;

/** The custom properties of a theme (with an accent already made usable), as `name: value` pairs. */
export function themeVars(theme: Theme, accent: string | null): Record<string, string> {
  const p = paletteWith(theme, accent);
  return {
    '--bg': p.bg,
    '--surface': p.surface,
    '--surface-muted': p.surfaceMuted,
    '--text': p.text,
    '--text-muted': p.textMuted,
    '--border': p.border,
    '--accent': p.accent,
    '--accent-strong': p.accentStrong,
    '--accent-deep': p.accentDeep,
    '--accent-soft': p.accentSoft,
    '--on-accent': p.onAccent,
    '--gold': p.gold,
    '--gold-text': p.goldText,
    '--danger-text': p.dangerText,
    '--success-text': p.successText,
    '--warning-text': p.warningText,
    '--radius': theme.radius,
    '--font-serif': fontStack(theme.serif),
    '--font-sans': fontStack(theme.sans),
    'color-scheme': theme.dark ? 'dark' : 'light',
  };
}

/** A CSS rule giving `selector` the theme's properties. */
export function themeCss(selector: string, theme: Theme, accent: string | null): string {
  return `${selector}{${Object.entries(themeVars(theme, accent)).map(([k, v]) => `${k}:${v}`).join(';')}}`;
}
