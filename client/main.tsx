import { createRoot } from 'react-dom/client';
// All CSS loads up front (it is small); esbuild does not load the CSS of lazy chunks by itself.
import './styles/base.css';
import './styles/guest.css';
import './styles/admin.css';
import './styles/wall.css';
import './styles/guestbook.css';
import './styles/camera.css';
import { startLanguage } from './i18n';
import { App } from './routes';

// The page's language is in before the first paint (its file is preloaded by the HTML).
void startLanguage().then(() => createRoot(document.getElementById('root')!).render(<App />));
