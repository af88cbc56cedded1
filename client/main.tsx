import { createRoot } from 'react-dom/client';
import './styles/base.css';
import { App } from './routes';

createRoot(document.getElementById('root')!).render(<App />);
