import { createRoot } from 'react-dom/client';
// All CSS loads up front (it is small); esbuild does not load the CSS of lazy chunks by itself.
import './styles/base.css';
import './styles/guest.css';
import './styles/admin.css';
import './styles/wall.css';
import { App } from './routes';

createRoot(document.getElementById('root')!).render(<App />);
