// The web app manifest and its icons, so guests can put the upload page on their home screen.
// Written into dist/client/assets with hashed names (that folder is cached for a year).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const BG = '#faf7f2';
// Two linked rings on the site's sage: shapes only, so no font is needed to draw it.
const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">
  <rect width="512" height="512" fill="#5d6d53"/>
  <circle cx="206" cy="266" r="96" fill="none" stroke="${BG}" stroke-width="28"/>
  <circle cx="306" cy="246" r="96" fill="none" stroke="#d9c29a" stroke-width="28"/>
</svg>`;

const hashed = (name, data) => {
  const h = crypto.createHash('sha256').update(data).digest('hex').slice(0, 8);
  const ext = path.extname(name);
  return `${path.basename(name, ext)}-${h}${ext}`;
};

/**
 * Writes the icons and the manifest into `assetsDir`, and the manifest again as `clientDir`/app-manifest.json:
 * the server answers /manifest.webmanifest from it with the couple's names and their theme's colours.
 * Returns the <link> tags for index.html.
 */
export async function writeAppManifest(assetsDir, clientDir) {
  fs.mkdirSync(assetsDir, { recursive: true });
  const icons = [];
  for (const size of [192, 512]) {
    const png = await sharp(Buffer.from(ICON_SVG)).resize(size, size).png().toBuffer();
    const file = hashed(`icon-${size}.png`, png);
    fs.writeFileSync(path.join(assetsDir, file), png);
    // The icon is drawn edge to edge with its subject in the middle, so it also works masked.
    icons.push({ src: `/assets/${file}`, sizes: `${size}x${size}`, type: 'image/png', purpose: 'any maskable' });
  }
  const manifest = JSON.stringify({
    name: 'Wedding Photo Collection',
    short_name: 'Wedding photos',
    description: 'Share your photos and videos from the wedding day.',
    start_url: '/live',
    scope: '/',
    display: 'standalone',
    background_color: BG,
    theme_color: BG,
    icons,
  }, null, 2);
  const file = hashed('manifest.webmanifest', manifest);
  fs.writeFileSync(path.join(assetsDir, file), manifest);
  if (clientDir) fs.writeFileSync(path.join(clientDir, 'app-manifest.json'), manifest);
  return `<link rel="manifest" href="/assets/${file}">\n    <link rel="apple-touch-icon" href="${icons[0].src}">`;
}
