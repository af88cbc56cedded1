/** /admin/qr: printable QR signs (placeholder until the wall/QR work lands). */
export function QrPage() {
  return <main className="container"><h1>QR signs</h1></main>;
}
