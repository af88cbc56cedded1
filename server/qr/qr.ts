import QRCode from 'qrcode';

/**
 * A QR code as a standalone SVG (crisp at any print size). Error correction M survives a
 * crumpled table card; the 4-module quiet zone is what phone scanners expect.
 */
export function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 4, color: { dark: '#000000', light: '#ffffff' } });
}
