// `node --import ./scripts/i18n/register.mjs`: lets code run from source import the catalogues.
import { register } from 'node:module';

register('./node-hooks.mjs', import.meta.url);
